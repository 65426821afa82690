// Package datatest holds test helpers over package data: hop-distance
// sources of generated graphs, for the samplers' tests in eval and
// objective (which test without building a run), and input files for the
// tests that read a user's graph. Imported by tests only.
package datatest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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

// File writes text to a file called name in a fresh temporary directory
// and returns its path (an edge list, labels, features for a test).
func File(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
