package features

import (
	"math"
	"testing"
)

// TestPopularity: row i is 1 + b·ln(1 + deg i), in Dense or Dense32; a
// negative or infinite b is an error.
func TestPopularity(t *testing.T) {
	deg := []int{0, 1, 4, 1000}
	f, err := Popularity(deg, 0.1, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Popularity(deg, 0.1, true)
	if err != nil {
		t.Fatal(err)
	}
	if f.N != 4 || f.DenseDim != 1 || g.DenseDim != 1 || len(g.Dense32) != 4 {
		t.Fatalf("shapes %d×%d, float32 %d", f.N, f.DenseDim, len(g.Dense32))
	}
	for i, d := range deg {
		want := 1 + 0.1*math.Log(1+float64(d))
		if f.Dense[i] != want || g.Dense32[i] != float32(want) {
			t.Errorf("row %d (degree %d): %v, %v; want %v", i, d, f.Dense[i], g.Dense32[i], want)
		}
	}
	for _, b := range []float64{-0.1, math.Inf(1), math.NaN()} {
		if _, err := Popularity(deg, b, false); err == nil {
			t.Errorf("b %v: no error", b)
		}
	}
}
