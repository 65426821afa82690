package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"

	"github.com/ignn/ignn/data"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Shift is one model's move from its base variant to IGNN (both).
type Shift struct {
	Model            string
	BaseAUC, BaseTau float64
	BothAUC, BothTau float64
}

// Ref is a reference row's point (the (capacity) row, the (skip path
// alone) row): drawn in grey beside the models' shifts, named in the legend.
type Ref struct {
	Name     string
	AUC, Tau float64
}

// refGlyphs are the reference points' shapes, in order.
var refGlyphs = []draw.GlyphDrawer{draw.CrossGlyph{}, draw.BoxGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}}

// PlotShifts draws AUC (x) against Kendall τ (y) per model, a circle at the
// base variant and a triangle at "both" joined by a line (the paper's
// Figure 2), the reference points refs in grey, and writes it as PNG and
// SVG under base+".png"/".svg".
func PlotShifts(title string, shifts []Shift, refs []Ref, base string) error {
	p := plot.New()
	p.Title.Text = title + " (circle: base, triangle: both)"
	p.X.Label.Text = "test AUC-ROC"
	p.Y.Label.Text = "Kendall τ-b (distance vs cosine)"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	for i, s := range shifts {
		if anyNaN(s.BaseAUC, s.BaseTau, s.BothAUC, s.BothTau) {
			continue
		}
		c := palette[i%len(palette)]
		l, err := plotter.NewLine(plotter.XYs{{X: s.BaseAUC, Y: s.BaseTau}, {X: s.BothAUC, Y: s.BothTau}})
		if err != nil {
			return err
		}
		l.Color, l.Width = c, vg.Points(1.5)
		from, _ := plotter.NewScatter(plotter.XYs{{X: s.BaseAUC, Y: s.BaseTau}})
		from.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		to, _ := plotter.NewScatter(plotter.XYs{{X: s.BothAUC, Y: s.BothTau}})
		to.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4.5), Shape: draw.TriangleGlyph{}}
		p.Add(l, from, to)
		p.Legend.Add(s.Model, l)
	}
	for i, r := range refs {
		if anyNaN(r.AUC, r.Tau) {
			continue
		}
		pt, err := plotter.NewScatter(plotter.XYs{{X: r.AUC, Y: r.Tau}})
		if err != nil {
			return err
		}
		pt.GlyphStyle = draw.GlyphStyle{Color: color.Gray{0x60}, Radius: vg.Points(4.5), Shape: refGlyphs[i%len(refGlyphs)]}
		p.Add(pt)
		p.Legend.Add(r.Name, pt)
	}
	pad(p)
	return savePlot(p, base)
}

// palette is Okabe and Ito's colour-blind-safe set (yellow left out: it
// vanishes on white): six models stay apart at a glance.
var palette = []color.Color{
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// pad widens both axes by 6% of their span on each side, so markers at the
// extremes are drawn whole instead of clipped at the frame.
func pad(p *plot.Plot) {
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		span := ax.Max - ax.Min
		if span <= 0 {
			span = math.Max(math.Abs(ax.Max), 1) * 0.1
		}
		ax.Min -= 0.06 * span
		ax.Max += 0.06 * span
	}
}

// LambdaPoint is one sweep setting's mean τ.
type LambdaPoint struct{ LambdaBCE, LambdaMSE, Tau float64 }

// PlotTauVsLambda draws τ against λ_MSE, one line per λ_BCE (the paper's
// Figure 1). λ_MSE = 0 is drawn at the left edge of the symlog-like axis
// (positions 0, 0.1, 1, 10 are spaced evenly).
func PlotTauVsLambda(title string, pts []LambdaPoint, base string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "λ_MSE"
	p.Y.Label.Text = "Kendall τ-b"
	p.Add(plotter.NewGrid())
	pos := func(l float64) float64 {
		if l <= 0 {
			return 0
		}
		return 2 + math.Log10(l) // 0.1 → 1, 1 → 2, 10 → 3
	}
	p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 1, Label: "0.1"}, {Value: 2, Label: "1"}, {Value: 3, Label: "10"}})
	series := map[float64]plotter.XYs{}
	var keys []float64
	for _, q := range pts {
		if math.IsNaN(q.Tau) {
			continue
		}
		if _, ok := series[q.LambdaBCE]; !ok {
			keys = append(keys, q.LambdaBCE)
		}
		series[q.LambdaBCE] = append(series[q.LambdaBCE], plotter.XY{X: pos(q.LambdaMSE), Y: q.Tau})
	}
	sort.Float64s(keys)
	for i, k := range keys {
		xy := series[k]
		sort.Slice(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
		l, sc, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, sc.Color = palette[i%len(palette)], palette[i%len(palette)]
		sc.Shape = plotutil.Shape(i)
		p.Add(l, sc)
		p.Legend.Add(fmt.Sprintf("λ_BCE = %g", k), l, sc)
	}
	pad(p)
	return savePlot(p, base)
}

func savePlot(p *plot.Plot, base string) error {
	for _, ext := range []string{"png", "svg"} {
		w, err := p.WriterTo(16*vg.Centimeter, 11*vg.Centimeter, ext)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			return err
		}
		if err := data.WriteFileAtomic(base+"."+ext, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func anyNaN(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}
