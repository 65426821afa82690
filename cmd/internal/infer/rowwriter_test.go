package infer

import (
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestRowWriter: rows handed over in any order, flushed every few rows,
// land in the spill file at their numbers (runs of consecutive rows
// written whole), and a row past the file's end is an error.
func TestRowWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, d := 500, 3
	s, err := data.NewSpill[float32](t.TempDir(), n, d)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := make([]float32, n*d)
	w := &rowWriter{s: s, d: d}
	for k, v := range rng.Perm(n) {
		row := w.next(v)
		for j := range row {
			row[j] = float32(rng.NormFloat64())
			want[v*d+j] = row[j]
		}
		if k%7 == 6 {
			if err := w.flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	got := s.Block(0, n, make([]float32, n*d))
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("entry %d: %v, want %v", k, got[k], want[k])
		}
	}
	w.next(n)
	if err := w.flush(); err == nil {
		t.Fatal("a row past the end was written")
	}
}
