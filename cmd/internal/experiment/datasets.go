package experiment

import (
	"fmt"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// BuiltinDatasets are the names LoadDataset knows besides file paths.
var BuiltinDatasets = []string{"communities", "email", "protein"}

// LoadDataset returns a built-in dataset by name (Communities is generated
// from seed), or a user's graph when name is not built in and is a path.
func LoadDataset(cfg Config) (*data.Dataset, error) {
	switch cfg.Dataset {
	case "communities":
		return data.Communities(data.DefaultCommunities, engine.Stream(cfg.Seed, "graph"))
	case "email", "protein":
		dir, err := data.FindDataDir(cfg.DataDir, cfg.Dataset)
		if err != nil {
			return nil, err
		}
		if cfg.Dataset == "email" {
			return data.Email(dir)
		}
		return data.Protein(dir)
	}
	if IsPath(cfg.Dataset) {
		return data.LoadUser(data.UserFiles{Edges: cfg.Dataset, Labels: cfg.Labels, Features: cfg.Features, GraphIndex: cfg.GraphIndex})
	}
	return nil, fmt.Errorf("unknown dataset %q (valid: %s, or a path to an edge list)", cfg.Dataset, strings.Join(BuiltinDatasets, ", "))
}
