package eval

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestChanceBound: random scores stay above the bound in ≥ 95% of draws
// (a two-SE bound is passed by ≈ 2.3% of them), and the bound is the
// Mann–Whitney null standard error: n = m = 100 gives 0.5 − 2·√(201/120000)
// = 0.41814.
func TestChanceBound(t *testing.T) {
	if b := ChanceBound(100, 100); math.Abs(b-(0.5-2*math.Sqrt(201.0/120000))) > 1e-15 || math.Abs(b-0.41814) > 1e-5 {
		t.Errorf("ChanceBound(100, 100) = %v", b)
	}
	if !math.IsNaN(ChanceBound(0, 5)) {
		t.Error("no positives: want NaN")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	below := 0
	for range 2000 {
		sc, lb := make([]float64, 400), make([]bool, 400)
		for i := range sc {
			sc[i], lb[i] = rng.Float64(), i < 200
		}
		if BelowChance(AUC(sc, lb), 200, 200) {
			below++
		}
	}
	if below > 100 || below < 10 {
		t.Errorf("random scores below the bound in %d of 2000 draws; want ≈ 46 (2.3%%)", below)
	}
	if !BelowChance(0.44, 8000, 8000) || BelowChance(0.499, 8000, 8000) {
		t.Error("0.44 on 8000 + 8000 pairs is below chance; 0.499 is noise")
	}
}
