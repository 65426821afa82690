// Package datatest holds test helpers over package data: hop-distance
// sources of generated graphs, for the samplers' tests in eval and
// objective (which test without building a run). Imported by tests only.
package datatest

import (
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

// Hops is the hop-distance source of the generated graph spec
// (data.Generate, seeded) over every edge of its first graph: exact tables
// or BFS rows, with workers BFS goroutines.
func Hops(t testing.TB, spec string, exact bool, workers int) *data.Hops {
	t.Helper()
	ds, err := data.Generate(spec, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	h, err := data.NewHops(ds.Union(), [][][2]int32{ds.Graphs[0].Edges}, exact, workers)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
