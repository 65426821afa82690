package features

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/engine"
)

// Popularity is the popularity column some embeddings end with: row i is
// 1 + b·ln(1 + deg[i]), deg the degrees on the message-passing edges and
// b ≥ 0 the bias's weight (models.Config.Popularity). Appended at a large
// scale A beside a unit embedding ẑ and normalised, it makes a pair's
// cosine, to first order in b·ln(1 + deg), 1 − 1/A² + (ẑ_i·ẑ_j + b·ln(1 +
// deg i) + b·ln(1 + deg j))/A²: the embedding's own cosine plus b times the
// log of the degree product (preferential attachment), a per-node bias as
// in matrix factorisation, kept in one column of a unit embedding. Rows go
// in Dense32 when float32s, else in Dense. O(n).
func Popularity(deg []int, b float64, float32s bool) (*engine.Features, error) {
	if !(b >= 0) || math.IsInf(b, 0) {
		return nil, fmt.Errorf("features: popularity weight %v, want a finite b ≥ 0", b)
	}
	n := len(deg)
	if float32s {
		rows := make([]float32, n)
		for i, d := range deg {
			rows[i] = float32(1 + b*math.Log1p(float64(d)))
		}
		return &engine.Features{N: n, DenseDim: 1, Dense32: rows}, nil
	}
	rows := make([]float64, n)
	for i, d := range deg {
		rows[i] = 1 + b*math.Log1p(float64(d))
	}
	return &engine.Features{N: n, DenseDim: 1, Dense: rows}, nil
}
