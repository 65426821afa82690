package run

import (
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestBelowChanceWarned: a run whose final or reported test AUC is under
// 0.5 − 2 SE for its test pairs is warned about, naming which AUC and the
// bound; one within noise of 0.5, or above, is not.
func TestBelowChanceWarned(t *testing.T) {
	p := &Prepared{Splits: []*data.Split{{Test: make([]data.Pair, 800), TestNeg: make([]data.Pair, 800)}}}
	for _, c := range []struct {
		reported, final float64
		want            string
	}{
		{0.45, 0.40, "the final test AUC 0.400 is below chance (under 0.471"},
		{0.44, 0.60, "the reported (epoch 3) test AUC 0.440"},
		{0.49, 0.495, ""},
		{0.9, 0.91, ""},
	} {
		res := &Result{TestAUC: Num(c.reported), BestEpoch: 3}
		res.Final.TestAUC = Num(c.final)
		got := belowChance(res, p)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("AUC %v / %v: %q, want %q", c.reported, c.final, got, c.want)
		}
	}
}
