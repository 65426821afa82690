package experiment

import (
	"math"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/eval"
)

func aggregate(cc CompareConfig, jobs []Job, results []*Result) *Comparison {
	c := &Comparison{Dataset: cc.Base.Dataset, Task: cc.Base.Task, Epochs: cc.Base.Epochs, Repeats: cc.Repeats, HashDim: cc.Base.HashDim,
		Selection: "per run: test metrics at the first epoch with the best validation AUC; 'final' = last epoch; mean ± sample std (n − 1) over seeds, 95% Student-t intervals; vs_base: paired differences from the model's base variant on the same seeds (paired t and exact sign-flip permutation p-values)"}
	if cc.Sweep {
		c.Selection += "; sweep: per model and variant, the (lr, λ_BCE, λ_MSE) with the highest mean validation AUC over seeds"
	}
	type group struct {
		setting Job
		cells   []CellMetrics
	}
	groups := map[string]*group{}
	var order []string
	var done []*Result
	for _, r := range results {
		if r != nil {
			done = append(done, r)
		}
	}
	c.Provenance = gridProvenance(done)
	for i, j := range jobs {
		r := results[i]
		if r == nil {
			continue // failed: listed in Comparison.Failures
		}
		var byD []Bucket
		if r.Faithfulness != nil {
			byD = r.Faithfulness.Buckets
		}
		cm := CellMetrics{Job: j, ByDistance: byD, BestEpoch: r.BestEpoch, StoppedEpoch: r.StoppedEpoch, PrecisionAt10: faith(r, true), DistortionMean: faith(r, false), ValAUC: r.ValAUC, TestAUC: r.TestAUC, Tau: r.TestKendallTau, Final: r.Final}
		c.Cells = append(c.Cells, cm)
		s := j
		s.Seed = 0
		if _, ok := groups[s.Key()]; !ok {
			groups[s.Key()] = &group{setting: s}
			order = append(order, s.Key())
		}
		groups[s.Key()].cells = append(groups[s.Key()].cells, cm)
	}
	// Choose one setting per model/variant: the best mean validation AUC.
	chosen := map[string]*group{}
	var mv []string
	for _, k := range order {
		g := groups[k]
		key := g.setting.Model + "/" + g.setting.Label()
		var vals []float64
		for _, x := range g.cells {
			vals = append(vals, float64(x.ValAUC))
		}
		m := eval.Summarise(vals).Mean
		if prev, ok := chosen[key]; !ok {
			chosen[key] = g
			mv = append(mv, key)
		} else {
			var pv []float64
			for _, x := range prev.cells {
				pv = append(pv, float64(x.ValAUC))
			}
			if pm := eval.Summarise(pv).Mean; m > pm || (math.IsNaN(pm) && !math.IsNaN(m)) {
				chosen[key] = g
			}
		}
	}
	for _, key := range mv {
		g := chosen[key]
		var auc, tau, fauc, ftau, fp10, fap []float64
		for _, x := range g.cells {
			auc, tau = append(auc, float64(x.TestAUC)), append(tau, float64(x.Tau))
			fauc, ftau = append(fauc, float64(x.Final.TestAUC)), append(ftau, float64(x.Final.TestKendallTau))
			fp10, fap = append(fp10, float64(x.PrecisionAt10)), append(fap, float64(x.Final.TestAP))
		}
		c.rows = append(c.rows, report.Row{Model: g.setting.Model, Variant: g.setting.Label(), Runs: len(g.cells),
			AUC: eval.Summarise(auc), Tau: eval.Summarise(tau), FinalAUC: eval.Summarise(fauc), FinalTau: eval.Summarise(ftau),
			FinalP10: eval.Summarise(fp10), FinalAP: eval.Summarise(fap)})
		if cc.Sweep {
			c.Chosen = append(c.Chosen, g.setting)
		}
	}
	report.MarkBest(c.rows)
	for i, r := range c.rows {
		base, ok := chosen[r.Model+"/"+string(Base)]
		if !ok || r.Variant == string(Base) {
			continue
		}
		var vt, bt, vf, bf, va, ba []float64
		bySeed := map[uint64]CellMetrics{}
		for _, x := range base.cells {
			bySeed[x.Seed] = x
		}
		for _, x := range chosen[r.Model+"/"+r.Variant].cells {
			if b, ok := bySeed[x.Seed]; ok {
				vt, bt = append(vt, float64(x.Tau)), append(bt, float64(b.Tau))
				vf, bf = append(vf, float64(x.Final.TestKendallTau)), append(bf, float64(b.Final.TestKendallTau))
				va, ba = append(va, float64(x.TestAUC)), append(ba, float64(b.TestAUC))
			}
		}
		c.rows[i].HasBase = true
		c.rows[i].DTau, c.rows[i].DFinalTau = eval.PairedTest(vt, bt), eval.PairedTest(vf, bf)
		c.rows[i].DAUC = eval.PairedTest(va, ba)
	}
	for i, r := range c.rows {
		s := chosen[r.Model+"/"+r.Variant].setting
		rj := RowJSON{Model: r.Model, Variant: r.Variant, Runs: r.Runs,
			AUCMean: Num(r.AUC.Mean), AUCStd: Num(r.AUC.Std), TauMean: Num(r.Tau.Mean), TauStd: Num(r.Tau.Std),
			FAUCMean: Num(r.FinalAUC.Mean), FAUCStd: Num(r.FinalAUC.Std), FTauMean: Num(r.FinalTau.Mean), FTauStd: Num(r.FinalTau.Std),
			BestTau: c.rows[i].BestTau, LR: s.LR, LambdaBCE: s.LambdaBCE, LambdaMSE: s.LambdaMSE,
			AUCCI: ci(r.AUC), TauCI: ci(r.Tau), FAUCCI: ci(r.FinalAUC), FTauCI: ci(r.FinalTau),
			FP10Mean: Num(r.FinalP10.Mean), FP10Std: Num(r.FinalP10.Std), FAPMean: Num(r.FinalAP.Mean)}
		if r.HasBase {
			rj.VsBase = &VsBase{Tau: pairedJSON(r.DTau), FinalTau: pairedJSON(r.DFinalTau), AUC: pairedJSON(r.DAUC)}
		}
		c.Rows = append(c.Rows, rj)
	}
	return c
}

func ci(s eval.Summary) [2]Num { return [2]Num{Num(s.Lo), Num(s.Hi)} }

// VsBase holds a row's paired differences from its model's base variant.
type VsBase struct {
	Tau      PairedJSON `json:"tau"`
	FinalTau PairedJSON `json:"final_tau"`
	AUC      PairedJSON `json:"auc"`
}

// PairedJSON is eval.Paired in results.json.
type PairedJSON struct {
	N           int    `json:"n"`
	Mean        Num    `json:"mean_diff"`
	CI          [2]Num `json:"ci95"`
	PairedT     Num    `json:"p_paired_t"`
	Permutation Num    `json:"p_permutation"`
	Significant bool   `json:"significant"`
}

func pairedJSON(p eval.Paired) PairedJSON {
	return PairedJSON{N: p.N, Mean: Num(p.Mean), CI: [2]Num{Num(p.Lo), Num(p.Hi)}, PairedT: Num(p.PT), Permutation: Num(p.PPerm), Significant: report.Significant(p)}
}

// faith returns a result's final precision@10 (p10) or mean distortion.
func faith(r *Result, p10 bool) Num {
	if r.Faithfulness == nil {
		return Num(math.NaN())
	}
	if p10 {
		return Num(r.Faithfulness.PrecisionAtK)
	}
	return Num(r.Faithfulness.DistortionMean)
}
