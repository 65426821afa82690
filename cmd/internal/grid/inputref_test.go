package grid

import (
	"math"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/features"
)

// TestInputRowsCosine: inputRows' dot products are the cosines of the full
// input rows, one-hot identity included, by brute force.
func TestInputRowsCosine(t *testing.T) {
	cfg := run.Default()
	cfg.Variant, cfg.Dataset = run.Hash, "caveman:6x5"
	cfg.Position, _ = features.ParsePosition("landmark:6")
	p, cfg := prepareFor(t, cfg)
	z, d := inputRows(p)
	x := p.Input.X
	xd := x.DenseFloat64()
	full := func(i int) []float64 { // [one-hot | dense], explicitly
		row := make([]float64, x.Sparse.Cols+d)
		for k := x.Sparse.RowPtr[i]; k < x.Sparse.RowPtr[i+1]; k++ {
			row[x.Sparse.ColIdx[k]] = x.Sparse.Val[k]
		}
		copy(row[x.Sparse.Cols:], xd[i*d:(i+1)*d])
		return row
	}
	for i := 0; i < x.N; i++ {
		for j := i + 1; j < x.N; j++ {
			a, b := full(i), full(j)
			var ab, aa, bb, got float64
			for k := range a {
				ab, aa, bb = ab+a[k]*b[k], aa+a[k]*a[k], bb+b[k]*b[k]
			}
			for k := 0; k < d; k++ {
				got += z[i*d+k] * z[j*d+k]
			}
			if want := ab / math.Sqrt(aa*bb); math.Abs(got-want) > 1e-12 {
				t.Fatalf("cos(%d, %d) = %g, want %g", i, j, got, want)
			}
		}
	}
	s, err := InputReference(cfg)
	if err != nil || !(s.Tau > 0.3) {
		t.Fatalf("landmark input τ %v, err %v (distances to landmarks should track hop distance)", s.Tau, err)
	}
}
