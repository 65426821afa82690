package report

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Curve is one variant's mean training history over seeds: at each
// evaluated epoch, the mean Kendall τ and the mean validation AUC.
type Curve struct {
	Epochs      []float64
	Tau, ValAUC []float64
}

// CurvePanel is one model's base and both curves.
type CurvePanel struct {
	Model      string
	Base, Both Curve
}

// PlotCurves draws τ (solid) and validation AUC (dashed) against epoch,
// base (grey) beside both (vermillion), one panel per model in a grid of
// up to three columns, and writes base+".png" and ".svg". It shows
// whether τ is still rising after validation AUC has saturated.
func PlotCurves(title string, panels []CurvePanel, base string) error {
	plots, cols, err := panelGrid(len(panels))
	if err != nil {
		return err
	}
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.Model
		p.X.Label.Text = "epoch"
		p.Y.Label.Text = "τ (solid) · val AUC (dashed)"
		p.Add(plotter.NewGrid())
		lo := 0.0
		for k, cv := range []Curve{pn.Base, pn.Both} {
			c, name := baseColor, "base"
			if k == 1 {
				c, name = bothColor, "both"
			}
			for m, ys := range [][]float64{cv.Tau, cv.ValAUC} {
				var xy plotter.XYs
				for e, y := range ys {
					if !math.IsNaN(y) {
						xy = append(xy, plotter.XY{X: cv.Epochs[e], Y: y})
						lo = math.Min(lo, y)
					}
				}
				if len(xy) == 0 {
					continue
				}
				l, err := plotter.NewLine(xy)
				if err != nil {
					return err
				}
				l.Color, l.Width = c, vg.Points(1.6)
				if m == 1 {
					l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
				}
				p.Add(l)
				if i == 0 {
					p.Legend.Add(name+[]string{" τ", " val AUC"}[m], l)
				}
			}
		}
		p.Y.Min, p.Y.Max = math.Min(0, lo-0.02), 1.02
		p.Legend.Top, p.Legend.Left = true, false // between the AUC lines near 1 and τ below
		p.Legend.YOffs = -vg.Centimeter * 0.7
		p.Legend.TextStyle.Font.Size = vg.Points(8)
		plots[i/cols][i%cols] = p
	}
	return saveTiled(plots, title+" — training curves (mean over seeds)", base)
}
