package features

import (
	"math"
	"testing"
)

// TestPolar: on two hand-made graphs of landmark rows, every output row is
// [1 | g·ŝ] with ŝ the standardised row at unit length and g the mean
// landmark distance rescaled within the row's graph (computed here from
// the distances the rows were made of); a row reaching no landmark gets
// g = 1, a graph of equal means g = 0, and the input is left as it was.
func TestPolar(t *testing.T) {
	const k = 2
	enc := func(d float64) float64 { // the landmark encoding of distance d (-1: unreachable)
		if d < 0 {
			return 0
		}
		return 1 / (1 + d)
	}
	dist := [][k]float64{
		// graph 0: four nodes
		{0, 3}, {1, 2}, {4, 4}, {-1, -1},
		// graph 1: two nodes with the same mean distance
		{1, 3}, {3, 1},
	}
	wantG := []float64{
		(1.5 - 1.5) / (4 - 1.5), (1.5 - 1.5) / (4 - 1.5), 1, 1,
		0, 0,
	}
	n := len(dist)
	v := make([]float64, n*k)
	for r, d := range dist {
		for c := range k {
			v[r*k+c] = enc(d[c])
		}
	}
	orig := append([]float64(nil), v...)
	std := append([]float64(nil), v...)
	Standardise(std, n, k)
	out := Polar(v, n, k, []int{0, 4, 6})
	for i := range v {
		if v[i] != orig[i] {
			t.Fatalf("Polar changed its input at %d", i)
		}
	}
	if len(out) != n*(k+1) {
		t.Fatalf("%d values, want %d", len(out), n*(k+1))
	}
	for r := range n {
		row := out[r*(k+1) : (r+1)*(k+1)]
		if row[0] != 1 {
			t.Errorf("row %d: pole column %g, want 1", r, row[0])
		}
		s := std[r*k : (r+1)*k]
		norm := math.Hypot(s[0], s[1])
		for c := range k {
			want := 0.0
			if norm > 0 {
				want = wantG[r] * s[c] / norm
			}
			if math.Abs(row[1+c]-want) > 1e-12 {
				t.Errorf("row %d col %d: %g, want g %g × ŝ %g", r, c, row[1+c], wantG[r], want)
			}
		}
	}
}
