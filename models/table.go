package models

import (
	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

func init() {
	Register(Entry{
		Name:        "table",
		Description: "a free embedding table (one learned unit vector per node, no message passing): the capacity reference",
		New:         NewTable,
		WholeGraph:  "it holds one row per node of the graph it was built on (transductive)",
	})
}

// NewTable returns a free embedding table: z_i = Z_i/‖Z_i‖ for a learned
// N × c.Out matrix Z (Glorot-uniform), reading neither the features nor the
// edges. Trained on the distance term alone it is the capacity reference
// (compare's (capacity) row): what cosine similarity in c.Out dimensions
// can reach on a graph with no model in the way. It is transductive (one
// row per node of the graph it was built on) and trains on whole-graph
// steps only.
//
// Contract: c must pass Config.Validate; returns N×c.Out embeddings with
// unit rows, N the input's node count.
func NewTable(c Config) Model { return table{cfg: c} }

type table struct{ cfg Config }

func (m table) Forward(b *engine.Builder, in *engine.GraphInput) *G.Node {
	return engine.RowNormalize(b.Param("table.Z", engine.Glorot(1), in.Adj.N, m.cfg.Out))
}
