package run

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
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
		ds, err := data.Generate(cfg.Dataset, engine.Stream(cfg.Seed, "graph"))
		if err == nil && cfg.Features == data.FeaturesConstant {
			ds = ds.WithConstantFeatures()
		}
		return ds, err
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

// DatasetNodes is cfg's dataset's node count: read from a generator's
// specification, else by loading the data.
func DatasetNodes(cfg Config) (int, error) {
	if data.IsGenerated(cfg.Dataset) {
		return data.GeneratedNodes(cfg.Dataset)
	}
	ds, err := LoadDataset(cfg)
	if err != nil {
		return 0, err
	}
	return ds.NumNodes(), nil
}

func unknownDataset(name string) error {
	return fmt.Errorf("unknown dataset %q (valid: %s, a generated graph %s, or a path to an edge list)",
		name, strings.Join(BuiltinDatasets, ", "), strings.Join(data.Generators, " or "))
}

// Fingerprint hashes a dataset's content (sizes, edges, labels, features,
// node ids), so a checkpoint refuses other data.
func Fingerprint(ds *data.Dataset) string {
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
	h.Write([]byte(ds.Name))
	put(uint64(len(ds.Graphs)))
	for gi, g := range ds.Graphs {
		put(uint64(g.N))
		for _, e := range g.Edges {
			put(uint64(e[0]))
			put(uint64(e[1]))
		}
		for _, l := range g.Labels {
			put(uint64(l))
		}
		for i := range g.N { // every node's row, shared or not
			for _, x := range g.XRow(i) {
				put(math.Float64bits(x))
			}
		}
		for i := range g.N {
			put(g.ID(i))
		}
		for _, s := range g.Names { // named nodes only: integer datasets hash as before
			put(uint64(len(s)))
			h.Write([]byte(s))
		}
		if ds.Perm != nil {
			for _, p := range ds.Perm[gi] {
				put(uint64(p))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// IsPath reports whether a --dataset value names a file rather than a
// built-in dataset: it is not a built-in name, and it looks like a path or
// an existing file has that name.
func IsPath(name string) bool {
	if contains(BuiltinDatasets, name) || data.IsGenerated(name) {
		return false
	}
	if strings.ContainsAny(name, "/.\\") {
		return true
	}
	_, err := os.Stat(name)
	return err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// UseFeatures is ds with the input the resolved cfg names: the large
// defaults may replace a featureless graph's one-hot identity by a constant
// (loading happens before the size is known). ds is not modified.
func UseFeatures(ds *data.Dataset, cfg Config) *data.Dataset {
	if cfg.Features == data.FeaturesConstant {
		return ds.WithConstantFeatures()
	}
	return ds
}

// TrainPositives is the number of training positives a task's splits of
// ds hold: 80% of each graph's positive pairs (its edges, or its
// same-label node pairs), as data.NewSplit cuts them, over the graphs with
// enough pairs for a split.
func TrainPositives(ds *data.Dataset, task data.Task) int {
	total := 0
	for _, g := range ds.Graphs {
		p := len(g.Edges)
		if task == data.TaskPair {
			count := map[int32]int{}
			for _, l := range g.Labels {
				count[l]++
			}
			p = 0
			for _, k := range count {
				p += k * (k - 1) / 2
			}
		}
		if p >= 10 { // data.NewSplit's minimum
			total += int(0.8 * float64(p))
		}
	}
	return total
}
