package grid

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
)

// PlotCurves draws the training histories kept in dir's cell files (a
// compare --out directory holding c): per model, the mean over seeds of τ
// and validation AUC at each evaluated epoch, base against both, for the
// setting each row reports. It writes outBase+"curves.png" and ".svg".
func PlotCurves(dir string, c *Comparison, title, outBase string) (string, error) {
	var panels []report.CurvePanel
	for _, m := range uniqueModels(c) {
		b, err := meanCurve(dir, c, m, run.Base)
		if err != nil {
			return "", err
		}
		t, err := meanCurve(dir, c, m, run.Both)
		if err != nil {
			return "", err
		}
		if len(b.Epochs) > 0 && len(t.Epochs) > 0 {
			panels = append(panels, report.CurvePanel{Model: m, Base: b, Both: t})
		}
	}
	if len(panels) == 0 {
		return "", fmt.Errorf("nothing to plot: no model in %s has base and both cells with a training history (cells written by this ignn's compare --out keep one)", dir)
	}
	f := outBase + "curves"
	return f + ".png", report.PlotCurves(title, panels, f)
}

// meanCurve averages the histories of one row's cells per epoch.
func meanCurve(dir string, c *Comparison, model string, v run.Variant) (report.Curve, error) {
	row := c.row(model, string(v))
	var cv report.Curve
	if row == nil {
		return cv, nil
	}
	type acc struct {
		tau, auc   float64
		nTau, nAUC int
	}
	by := map[int]*acc{}
	for _, cm := range c.Cells {
		j := cm.Job
		if j.Model != model || j.Variant != v || !j.Position.IsHash() || j.LR != row.LR || j.LambdaBCE != row.LambdaBCE || j.LambdaMSE != row.LambdaMSE {
			continue
		}
		path := filepath.Join(dir, "cells", j.Key()+".json")
		b, err := os.ReadFile(path)
		if err != nil {
			return cv, fmt.Errorf("training curves need the cell files: %w", err)
		}
		var r run.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return cv, fmt.Errorf("%s: %w", path, err)
		}
		for _, h := range r.History {
			a := by[h.Epoch]
			if a == nil {
				a = &acc{}
				by[h.Epoch] = a
			}
			if t := float64(h.TestKendallTau); !math.IsNaN(t) {
				a.tau, a.nTau = a.tau+t, a.nTau+1
			}
			if x := float64(h.ValAUC); !math.IsNaN(x) {
				a.auc, a.nAUC = a.auc+x, a.nAUC+1
			}
		}
	}
	epochs := make([]int, 0, len(by))
	for e := range by {
		epochs = append(epochs, e)
	}
	sort.Ints(epochs)
	for _, e := range epochs {
		a := by[e]
		cv.Epochs = append(cv.Epochs, float64(e))
		cv.Tau = append(cv.Tau, a.tau/float64(a.nTau))
		cv.ValAUC = append(cv.ValAUC, a.auc/float64(a.nAUC))
	}
	return cv, nil
}
