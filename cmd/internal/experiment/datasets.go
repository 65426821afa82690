package experiment

import (
	"fmt"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// BuiltinDatasets are the names LoadDataset knows besides file paths.
var BuiltinDatasets = []string{"communities"}

// LoadDataset returns a built-in dataset by name, generated from seed where
// it is synthetic.
func LoadDataset(name, dir string, seed uint64) (*data.Dataset, error) {
	switch name {
	case "communities":
		return data.Communities(data.DefaultCommunities, engine.Stream(seed, "graph"))
	}
	return nil, fmt.Errorf("unknown dataset %q (valid: %s)", name, strings.Join(BuiltinDatasets, ", "))
}
