package grid

import (
	"math"

	"github.com/ignn/ignn/objective"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/eval"
)

func aggregate(cc CompareConfig, jobs []Job, results []*run.Result) *Comparison {
	c := &Comparison{Dataset: cc.Base.Dataset, Task: cc.Base.Task, Epochs: cc.Base.Epochs, Repeats: cc.Repeats, HashDim: cc.Base.HashDim,
		Selection: "per run: test metrics at the first epoch with the best validation AUC; 'final' = last epoch; mean ± sample std (n − 1) over seeds, 95% Student-t intervals; vs_base: paired differences from the model's base variant on the same seeds (paired t and exact sign-flip permutation p-values)"}
	rule := cc.Select
	if rule == "" {
		rule = eval.SelectAUC
	}
	if rule != eval.SelectAUC {
		c.Selection = "per run: test metrics at " + rule.Describe() + "; 'final' = last epoch; mean ± sample std (n − 1) over seeds, 95% Student-t intervals; vs_base: paired differences from the model's base variant on the same seeds (paired t and exact sign-flip permutation p-values)"
	}
	if cc.Sweep {
		c.Selection += "; sweep: per model and variant, " + settingRule(rule)
	}
	groups := map[string]*group{}
	var order []string
	var done []*run.Result
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
		var byD []run.Bucket
		if r.Faithfulness != nil {
			byD = r.Faithfulness.Buckets
		}
		if rule != eval.SelectAUC {
			rs := *r
			rs.Select(rule)
			r = &rs
		}
		cm := CellMetrics{Job: j, ByDistance: byD, BestEpoch: r.BestEpoch, StoppedEpoch: r.StoppedEpoch, PrecisionAt10: faith(r, true), DistortionMean: faith(r, false), ValAUC: r.ValAUC, TestAUC: r.TestAUC, Tau: r.TestKendallTau, Final: r.Final,
			ValTau: r.ValKendallTau, ValObjective: r.ValObjective, ValYardstick: yardstick(r), valPos: r.ValPositives, valNeg: r.ValNegatives,
			Settings: r.Config.Settings()}
		c.Cells = append(c.Cells, cm)
		s := j
		s.Seed = 0
		if _, ok := groups[s.Key()]; !ok {
			groups[s.Key()] = &group{setting: s}
			order = append(order, s.Key())
		}
		groups[s.Key()].cells = append(groups[s.Key()].cells, cm)
	}
	// Choose one setting per model/variant by the rule.
	chosen := map[string]*group{}
	var mv []string
	cands := map[string][]*group{}
	for _, k := range order {
		g := groups[k]
		key := g.setting.Model + "/" + g.setting.Label()
		if _, ok := cands[key]; !ok {
			mv = append(mv, key)
		}
		cands[key] = append(cands[key], g)
	}
	for _, key := range mv {
		chosen[key] = chooseSetting(cands[key], rule)
	}
	reference := map[int]Job{} // rows of the capacity and ablation references, by their setting
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
			FinalP10: eval.Summarise(fp10), FinalAP: eval.Summarise(fap), Settings: rowSettings(g.cells)})
		if g.setting.IsReference() { // a reference row: no settings in the heading, never "best", no base
			reference[len(c.rows)-1] = g.setting
			c.rows[len(c.rows)-1].Settings = report.Settings{}
		}
		if cc.Sweep {
			c.Chosen = append(c.Chosen, g.setting)
		}
	}
	report.MarkBest(c.rows)
	for i := range reference {
		c.rows[i].BestTau = false
	}
	if len(c.Cells) > 0 {
		c.Epochs = resolvedEpochs(c.Cells)
		c.Settings, c.SettingsPerCell = report.Heading(c.rows)
	}
	for i, r := range c.rows {
		base, ok := chosen[r.Model+"/"+string(run.Base)]
		if _, ref := reference[i]; ref || !ok || r.Variant == string(run.Base) {
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
			AUCMean: run.Num(r.AUC.Mean), AUCStd: run.Num(r.AUC.Std), TauMean: run.Num(r.Tau.Mean), TauStd: run.Num(r.Tau.Std),
			FAUCMean: run.Num(r.FinalAUC.Mean), FAUCStd: run.Num(r.FinalAUC.Std), FTauMean: run.Num(r.FinalTau.Mean), FTauStd: run.Num(r.FinalTau.Std),
			BestTau: c.rows[i].BestTau, LR: s.LR, LambdaBCE: s.LambdaBCE, LambdaMSE: s.LambdaMSE,
			AUCCI: ci(r.AUC), TauCI: ci(r.Tau), FAUCCI: ci(r.FinalAUC), FTauCI: ci(r.FinalTau),
			FP10Mean: run.Num(r.FinalP10.Mean), FP10Std: run.Num(r.FinalP10.Std), FAPMean: run.Num(r.FinalAP.Mean)}
		if r.HasBase {
			rj.VsBase = &VsBase{Tau: pairedJSON(r.DTau), FinalTau: pairedJSON(r.DFinalTau), AUC: pairedJSON(r.DAUC)}
		}
		c.Rows = append(c.Rows, rj)
	}
	for i, j := range reference { // the references are named as reference rows
		model, variant := CapacityRow, CapacityLabel
		if j.IsAblation() {
			model = AblationRow
			if j.AblationSketch {
				model = AblationSketchRow
			}
			j.Ablation, j.AblationSketch = false, false
			variant = j.Label()
		}
		c.rows[i].Model, c.rows[i].Variant = model, variant
		c.Rows[i].Model, c.Rows[i].Variant = model, variant
	}
	c.Notes = report.Agreement(c.rows, AblationRow, AblationSketchRow)
	if n := report.CapacityShort(c.rows, CapacityRow, CapacityEpochs); n != "" {
		c.Notes = append(c.Notes, n)
	}
	return c
}

// rowSettings is the settings of a row's cells; a field on which its seeds
// resolved differently (not seen in practice: seeds share a dataset) says
// "varies by seed".
func rowSettings(cells []CellMetrics) report.Settings {
	s := cells[0].Settings
	out := s
	for _, x := range cells[1:] {
		if x.Settings.Epochs != s.Epochs {
			out.Epochs = 0
		}
		for _, f := range []struct {
			a, b string
			dst  *string
		}{{x.Settings.Steps, s.Steps, &out.Steps}, {x.Settings.Input, s.Input, &out.Input}, {x.Settings.Distance, s.Distance, &out.Distance}} {
			if f.a != f.b {
				*f.dst = "varies by seed"
			}
		}
	}
	return out
}

func ci(s eval.Summary) [2]run.Num { return [2]run.Num{run.Num(s.Lo), run.Num(s.Hi)} }

// VsBase holds a row's paired differences from its model's base variant.
type VsBase struct {
	Tau      PairedJSON `json:"tau"`
	FinalTau PairedJSON `json:"final_tau"`
	AUC      PairedJSON `json:"auc"`
}

// PairedJSON is eval.Paired in results.json.
type PairedJSON struct {
	N           int        `json:"n"`
	Mean        run.Num    `json:"mean_diff"`
	CI          [2]run.Num `json:"ci95"`
	PairedT     run.Num    `json:"p_paired_t"`
	Permutation run.Num    `json:"p_permutation"`
	Significant bool       `json:"significant"`
}

func pairedJSON(p eval.Paired) PairedJSON {
	return PairedJSON{N: p.N, Mean: run.Num(p.Mean), CI: [2]run.Num{run.Num(p.Lo), run.Num(p.Hi)}, PairedT: run.Num(p.PT), Permutation: run.Num(p.PPerm), Significant: report.Significant(p)}
}

// faith returns a result's final precision@10 (p10) or mean distortion.
func faith(r *run.Result, p10 bool) run.Num {
	if r.Faithfulness == nil {
		return run.Num(math.NaN())
	}
	if p10 {
		return run.Num(r.Faithfulness.PrecisionAtK)
	}
	return run.Num(r.Faithfulness.DistortionMean)
}

// group is one setting's cells (seeds).
type group struct {
	setting Job
	cells   []CellMetrics
}

// groupMean is the mean over a setting's cells of one of their values.
func groupMean(cells []CellMetrics, f func(CellMetrics) run.Num) float64 {
	var v []float64
	for _, x := range cells {
		v = append(v, float64(f(x)))
	}
	return eval.Summarise(v).Mean
}

// chooseSetting picks one of a model/variant's settings (in grid order):
// the highest mean validation AUC (the first on ties; NaN loses), the
// lowest mean validation yardstick, or the lowest yardstick among the
// settings whose mean AUC is within one Hanley–McNeil standard error of
// the highest.
func chooseSetting(gs []*group, rule eval.SelectRule) *group {
	auc := func(g *group) float64 { return groupMean(g.cells, func(c CellMetrics) run.Num { return c.ValAUC }) }
	yard := func(g *group) float64 {
		return groupMean(g.cells, func(c CellMetrics) run.Num { return c.ValYardstick })
	}
	lower := func(a, b float64) bool { return !math.IsNaN(a) && (math.IsNaN(b) || a < b) }
	top := gs[0]
	for _, g := range gs[1:] {
		if m, pm := auc(g), auc(top); m > pm || (math.IsNaN(pm) && !math.IsNaN(m)) {
			top = g
		}
	}
	switch rule {
	case eval.SelectObjective:
		best := gs[0]
		for _, g := range gs[1:] {
			if lower(yard(g), yard(best)) {
				best = g
			}
		}
		return best
	case eval.SelectAUCThenObjective:
		a := auc(top)
		c := top.cells[0]
		floor := a - eval.AUCStdErr(a, c.valPos, c.valNeg)
		var best *group
		for _, g := range gs {
			if auc(g) >= floor && (best == nil || lower(yard(g), yard(best))) {
				best = g
			}
		}
		if best != nil {
			return best
		}
	}
	return top
}

// settingRule says how a sweep chose, for the comparison's selection line.
func settingRule(rule eval.SelectRule) string {
	switch rule {
	case eval.SelectObjective:
		return "the (lr, λ_BCE, λ_MSE) with the lowest mean validation yardstick over seeds (BCE + the run's distance term, both weighted 1, so settings of different λ compare)"
	case eval.SelectAUCThenObjective:
		return "the (lr, λ_BCE, λ_MSE) with the lowest mean validation yardstick among those whose mean validation AUC is within one Hanley–McNeil standard error of the highest"
	}
	return "the (lr, λ_BCE, λ_MSE) with the highest mean validation AUC over seeds"
}

// yardstick is a result's selected validation objective with unit weights:
// BCE + the distance term it trains (the MSE, or the ranking loss), or the
// MSE for variants without one.
func yardstick(r *run.Result) run.Num {
	for _, m := range r.History {
		if m.Epoch == r.BestEpoch && m.ValBCE != 0 { // cells made before issue 29 have none
			d := m.ValMSE
			if r.Config.DistanceLoss == objective.DistanceRank {
				d = m.ValRank
			}
			return m.ValBCE + d
		}
	}
	return run.Num(math.NaN())
}
