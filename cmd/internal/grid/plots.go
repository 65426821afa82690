package grid

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
)

// Plot writes DIR/auc-tau.{png,svg} (base → both per model) and, when the
// comparison is a sweep with GCN cells, DIR/tau-lambda.{png,svg} (τ against
// λ_MSE for each λ_BCE, the "both" variant, averaged over seeds).
func Plot(c *Comparison, title, outBase string) ([]string, error) {
	var shifts []report.Shift
	var models []string
	seen := map[string]bool{}
	for _, r := range c.Rows {
		if !seen[r.Model] {
			seen[r.Model] = true
			models = append(models, r.Model)
		}
	}
	var refs []report.Ref
	for _, m := range models {
		if m == CapacityRow || m == AblationRow || m == AblationSketchRow { // reference rows: a point each
			r := c.bothRow(m)
			if m == CapacityRow {
				r = c.row(m, CapacityLabel)
			}
			if r != nil {
				refs = append(refs, report.Ref{Name: m, AUC: float64(r.AUCMean), Tau: float64(r.TauMean)})
			}
			continue
		}
		b, t := c.row(m, "base"), c.bothRow(m)
		if b == nil || t == nil {
			continue
		}
		shifts = append(shifts, report.Shift{Model: m, BaseAUC: float64(b.AUCMean), BaseTau: float64(b.TauMean),
			BothAUC: float64(t.AUCMean), BothTau: float64(t.TauMean)})
	}
	var files []string
	if len(shifts) > 0 {
		if err := report.PlotShifts(title, shifts, refs, outBase+"auc-tau"); err != nil {
			return nil, err
		}
		files = append(files, outBase+"auc-tau.png")
	}
	// Figure 1: final-epoch τ per (λ_BCE, λ_MSE) of one model's "both"
	// cells at the learning rate the sweep chose, averaged over seeds.
	type key struct{ b, m float64 }
	sum, n := map[key]float64{}, map[key]int{}
	lr := math.NaN()
	for _, ch := range c.Chosen {
		if ch.Model == models[0] && ch.Variant == "both" {
			lr = ch.LR
		}
	}
	for _, cell := range c.Cells {
		tau := float64(cell.Final.TestKendallTau)
		if cell.Model != models[0] || cell.Variant != "both" || math.IsNaN(tau) || cell.LR != lr {
			continue
		}
		k := key{cell.LambdaBCE, cell.LambdaMSE}
		sum[k] += tau
		n[k]++
	}
	if len(sum) > 2 {
		var pts []report.LambdaPoint
		for k, s := range sum {
			pts = append(pts, report.LambdaPoint{LambdaBCE: k.b, LambdaMSE: k.m, Tau: s / float64(n[k])})
		}
		sort.Slice(pts, func(a, b int) bool {
			if pts[a].LambdaBCE != pts[b].LambdaBCE {
				return pts[a].LambdaBCE < pts[b].LambdaBCE
			}
			return pts[a].LambdaMSE < pts[b].LambdaMSE
		})
		if err := report.PlotTauVsLambda(fmt.Sprintf("%s: final-epoch τ vs λ_MSE (%s + both, lr %g)", title, models[0], lr), pts, outBase+"tau-lambda"); err != nil {
			return nil, err
		}
		files = append(files, outBase+"tau-lambda.png")
	}
	return files, nil
}

// bothRow is model's both row: "both", or the first with a positional
// input ("both[landmark:256]", compare --positions), nil without one.
func (c *Comparison) bothRow(model string) *RowJSON {
	if r := c.row(model, "both"); r != nil {
		return r
	}
	for i := range c.Rows {
		if c.Rows[i].Model == model && strings.HasPrefix(c.Rows[i].Variant, "both[") {
			return &c.Rows[i]
		}
	}
	return nil
}

// PlotDistance draws cosine against hop distance for every model with base
// and both cells (report.PlotDistance): per distance, the cells' cosine
// quantiles averaged over seeds, up to distance 12. It returns the PNG path.
func PlotDistance(c *Comparison, title, outBase string) (string, error) {
	boxes := func(model string, v run.Variant) []report.Box {
		sum := map[int][5]float64{}
		n := map[int]int{}
		for _, cm := range c.Cells {
			if cm.Model != model || cm.Variant != v || !cm.Position.IsHash() {
				continue
			}
			for _, b := range cm.ByDistance {
				if b.D < 1 || b.D > 12 {
					continue
				}
				s := sum[b.D]
				for i := range s {
					s[i] += float64(b.Quantiles[i])
				}
				sum[b.D], n[b.D] = s, n[b.D]+1
			}
		}
		var out []report.Box
		for d := 1; d <= 12; d++ {
			if n[d] == 0 {
				continue
			}
			q := sum[d]
			for i := range q {
				q[i] /= float64(n[d])
			}
			out = append(out, report.Box{D: d, Q: q})
		}
		return out
	}
	var panels []report.DistancePanel
	for _, m := range uniqueModels(c) {
		b, t := boxes(m, run.Base), boxes(m, run.Both)
		if len(b) > 0 && len(t) > 0 {
			panels = append(panels, report.DistancePanel{Model: m, Base: b, Both: t})
		}
	}
	if len(panels) == 0 {
		return "", fmt.Errorf("nothing to plot: no model has base and both cells with per-distance results (run compare with this ignn, variants base and both)")
	}
	if err := report.PlotDistance(title, panels, outBase+"distance"); err != nil {
		return "", err
	}
	return outBase + "distance.png", nil
}
