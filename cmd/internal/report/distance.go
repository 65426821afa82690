package report

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ignn/ignn/data"
)

// Box is the cosine distribution at one hop distance: quantiles 5, 25, 50,
// 75 and 95%.
type Box struct {
	D int
	Q [5]float64
}

// DistancePanel is one model's boxes for its base and both variants.
type DistancePanel struct {
	Model      string
	Base, Both []Box
}

var (
	baseColor = color.RGBA{0x80, 0x80, 0x80, 0xff}
	bothColor = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
)

// PlotDistance draws cosine similarity against hop distance, a box per
// distance (5–95% whiskers, quartile box, median bar) for base (grey, left)
// and both (vermillion, right), one panel per model in a grid of up to three
// columns, and writes base+".png" and ".svg". Isometric embeddings show
// boxes falling steadily with distance.
func PlotDistance(title string, panels []DistancePanel, base string) error {
	plots, cols, err := panelGrid(len(panels))
	if err != nil {
		return err
	}
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.Model
		p.X.Label.Text = "hop distance"
		p.Y.Label.Text = "cosine"
		p.Y.Min, p.Y.Max = -1.05, 1.05
		p.Add(plotter.NewGrid())
		maxD := 1
		for k, boxes := range [][]Box{pn.Base, pn.Both} {
			c, shift := baseColor, -0.2
			if k == 1 {
				c, shift = bothColor, 0.2
			}
			for _, b := range boxes {
				maxD = max(maxD, b.D)
				if err := addBox(p, float64(b.D)+shift, b.Q, c); err != nil {
					return err
				}
			}
		}
		p.X.Min, p.X.Max = 0.4, float64(maxD)+0.6
		var ticks []plot.Tick
		for d := 1; d <= maxD; d++ {
			ticks = append(ticks, plot.Tick{Value: float64(d), Label: fmt.Sprint(d)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		if i == 0 {
			lb, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}})
			lb.Color, lb.Width = baseColor, vg.Points(6)
			lt, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}})
			lt.Color, lt.Width = bothColor, vg.Points(6)
			p.Legend.Add("base", lb)
			p.Legend.Add("both", lt)
			p.Legend.Top = true
		}
		plots[i/cols][i%cols] = p
	}
	return saveTiled(plots, title+" — cosine by hop distance (boxes: 25–75%, bar: median, whiskers: 5–95%)", base)
}

// panelGrid lays n panels out in rows of up to three columns.
func panelGrid(n int) ([][]*plot.Plot, int, error) {
	if n == 0 {
		return nil, 0, fmt.Errorf("report: no panels to draw")
	}
	cols := min(3, n)
	plots := make([][]*plot.Plot, (n+cols-1)/cols)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	return plots, cols, nil
}

// saveTiled writes a grid of panels under a header line as base+".png"
// and ".svg" (atomically); nil panels stay empty.
func saveTiled(plots [][]*plot.Plot, header, base string) error {
	rows, cols := len(plots), len(plots[0])
	w, h := max(vg.Length(cols)*9*vg.Centimeter, 16*vg.Centimeter), vg.Length(rows)*7*vg.Centimeter+vg.Centimeter
	for _, ext := range []string{"png", "svg"} {
		var cv vg.CanvasWriterTo
		if ext == "png" {
			cv = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
		} else {
			cv = vgsvg.New(w, h)
		}
		dc := draw.New(cv)
		top := draw.Crop(dc, 0, 0, 0, -vg.Centimeter)
		hd := draw.Crop(dc, 0, 0, h-vg.Centimeter, 0)
		hd.FillText(draw.TextStyle{Color: color.Black, Font: plot.New().Title.TextStyle.Font, XAlign: draw.XCenter, YAlign: draw.YCenter,
			Handler: plot.DefaultTextHandler}, vg.Point{X: w / 2, Y: h - vg.Centimeter/2}, header)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
			PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
		canvases := plot.Align(plots, tiles, top)
		for r := range plots {
			for c := range plots[r] {
				if plots[r][c] != nil {
					plots[r][c].Draw(canvases[r][c])
				}
			}
		}
		var b bytes.Buffer
		if _, err := cv.WriteTo(&b); err != nil {
			return err
		}
		if err := data.WriteFileAtomic(base+"."+ext, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// addBox draws one box at x: whisker 5–95%, box 25–75%, median bar.
func addBox(p *plot.Plot, x float64, q [5]float64, c color.Color) error {
	const half = 0.16
	whisker, err := plotter.NewLine(plotter.XYs{{X: x, Y: q[0]}, {X: x, Y: q[4]}})
	if err != nil {
		return err
	}
	whisker.Color, whisker.Width = c, vg.Points(1)
	box, err := plotter.NewPolygon(plotter.XYs{{X: x - half, Y: q[1]}, {X: x + half, Y: q[1]}, {X: x + half, Y: q[3]}, {X: x - half, Y: q[3]}})
	if err != nil {
		return err
	}
	box.Color = color.RGBA{0xff, 0xff, 0xff, 0xff}
	box.LineStyle.Color, box.LineStyle.Width = c, vg.Points(1.5)
	med, err := plotter.NewLine(plotter.XYs{{X: x - half, Y: q[2]}, {X: x + half, Y: q[2]}})
	if err != nil {
		return err
	}
	med.Color, med.Width = c, vg.Points(2.5)
	p.Add(whisker, box, med)
	return nil
}
