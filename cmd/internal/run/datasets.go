package run

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
	}
	if data.IsGenerated(cfg.Dataset) {
		return data.Generate(cfg.Dataset, engine.Stream(cfg.Seed, "graph"))
	}
	switch cfg.Dataset {
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
		return data.LoadUser(data.UserFiles{Edges: cfg.Dataset, Labels: cfg.Labels, Features: cfg.Features, GraphIndex: cfg.GraphIndex,
			Header: cfg.Header, Columns: cfg.Columns})
	}
	return nil, unknownDataset(cfg.Dataset)
}

func unknownDataset(name string) error {
	return fmt.Errorf("unknown dataset %q (valid: %s, a generated graph %s, or a path to an edge list)",
		name, strings.Join(BuiltinDatasets, ", "), strings.Join(data.Generators, " or "))
}
