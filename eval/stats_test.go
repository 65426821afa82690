package eval

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestStatsAgainstScipy checks the sample std, the t intervals, the paired
// t-test and the exact sign-flip permutation test against values computed
// by scipy (testdata/stats_scipy.json: numpy.std(ddof=1),
// scipy.stats.t.interval, ttest_rel, permutation_test with
// permutation_type='samples' and n_resamples=inf).
func TestStatsAgainstScipy(t *testing.T) {
	b, err := os.ReadFile("testdata/stats_scipy.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Base, Variant []float64
			VariantStd    float64    `json:"variant_std"`
			VariantCI     [2]float64 `json:"variant_ci"`
			DiffMean      float64    `json:"diff_mean"`
			DiffCI        [2]float64 `json:"diff_ci"`
			PairedTP      float64    `json:"paired_t_p"`
			PermutationP  float64    `json:"permutation_p"`
		}
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	close := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %.15g, scipy %.15g", what, got, want)
		}
	}
	for _, c := range fx.Cases {
		s := Summarise(c.Variant)
		close("std", s.Std, c.VariantStd)
		close("ci lo", s.Lo, c.VariantCI[0])
		close("ci hi", s.Hi, c.VariantCI[1])
		p := PairedTest(c.Variant, c.Base)
		close("diff mean", p.Mean, c.DiffMean)
		close("diff lo", p.Lo, c.DiffCI[0])
		close("diff hi", p.Hi, c.DiffCI[1])
		close("paired t p", p.PT, c.PairedTP)
		close("permutation p", p.PPerm, c.PermutationP)
	}
	if s := Summarise([]float64{0.5, math.NaN()}); s.N != 1 || !math.IsNaN(s.Std) || s.String() != "0.500" {
		t.Errorf("one value: %+v %q", s, s.String())
	}
}
