package features

import (
	"fmt"
	"sort"

	"github.com/ignn/ignn/engine"
)

// SkipPolar is which block the skip path reads beside the positional
// columns (--skip-polar; run.Config.SkipPolar). JSON holds the string.
type SkipPolar string

// The --skip-polar settings.
const (
	SkipPolarOff  SkipPolar = ""     // the positional columns (standardised with --skip-standardise)
	SkipPolarOn   SkipPolar = "on"   // Polar's cone of the landmark columns
	SkipPolarAuto SkipPolar = "auto" // whichever of the two ranks the validation pairs better, untrained
)

// ParseSkipPolar reads --skip-polar.
func ParseSkipPolar(s string) (SkipPolar, error) {
	switch s {
	case "off", "false", "":
		return SkipPolarOff, nil
	case string(SkipPolarOn), "true":
		return SkipPolarOn, nil
	case string(SkipPolarAuto):
		return SkipPolarAuto, nil
	}
	return "", fmt.Errorf("unknown --skip-polar %q (valid: off, on, auto)", s)
}

// String is the flag's word ("off" for the zero value).
func (s SkipPolar) String() string {
	if s == SkipPolarOff {
		return "off"
	}
	return string(s)
}

// SkipBlocks builds the skip path's input from n rows of k positional
// values (read: ColumnsOf the input, or EncodingRows): the values as they
// are, standardised (Standardise), or their polar cone (Polar; starts holds
// each graph's first row, then n). With SkipPolarOn it returns the cone
// alone; with SkipPolarAuto the standardised block and the cone, for the
// caller to choose between; otherwise the values (standardised when
// standardise) and nil. Every value is computed in float64, row by row (no
// n × k float64 copy), and stored as float32 (Dense32) when f32, for
// float32 runs. O(n·k).
//
// With view (and f32) the blocks store nothing: they are views
// (engine.Features.View) that compute each row from read when it is
// loaded, to the same float32 values, with ahead (EncodingAhead, or nil)
// as their prefetch; read must then be safe for
// concurrent calls (EncodingRows is) and stay valid as long as the blocks.
func SkipBlocks(read RowReader, ahead func(r int), n, k int, starts []int, mode SkipPolar, standardise, f32, view bool) (block, polar *engine.Features) {
	var st Stats
	if mode != SkipPolarOff || standardise {
		st = ColumnStats(read, n, k)
	}
	apply := standardise || mode == SkipPolarAuto
	plain := func(r int, row []float64) {
		read(r, row)
		if apply {
			st.Apply(row)
		}
	}
	if view && f32 {
		if mode != SkipPolarOff {
			polar = viewBlock(n, k+1, newCone(read, n, k, starts, st).row, ahead)
			if mode == SkipPolarOn {
				return polar, nil
			}
		}
		return viewBlock(n, k, plain, ahead), polar
	}
	if mode != SkipPolarOff {
		polar = newBlock(n, k+1, f32)
		polarRows(read, n, k, starts, st, polar.SetRow)
		if mode == SkipPolarOn {
			return polar, nil
		}
	}
	block = newBlock(n, k, f32)
	row := make([]float64, k)
	for r := range n {
		plain(r, row)
		block.SetRow(r, row)
	}
	return block, polar
}

// viewBlock is an n × d block whose rows row computes in float64, viewed
// as float32 (the values newBlock(n, d, true).SetRow stores); ahead (or
// nil) is its prefetch (engine.Features.ViewAhead).
func viewBlock(n, d int, row func(r int, dst []float64), ahead func(r int)) *engine.Features {
	return &engine.Features{N: n, DenseDim: d, ViewScratch: d, ViewAhead: ahead, View: func(r int, dst []float32, scratch []float64) {
		row(r, scratch[:d])
		for j, v := range scratch[:d] {
			dst[j] = float32(v)
		}
	}}
}

// ColumnsOf reads columns col … col+k−1 of x's dense part (its stored
// values: rounded to float32 in compacted features).
func ColumnsOf(x *engine.Features, col int) RowReader {
	read, row := x.Rows(), make([]float64, x.DenseDim)
	return func(r int, dst []float64) {
		read(r, row)
		copy(dst, row[col:])
	}
}

// EncodingRows reads the union's rows of per-graph encodings (graph g's
// rows start at starts[g]), exactly. The reader holds no state: it is safe
// for concurrent calls.
func EncodingRows(encs []*Encoding, starts []int) RowReader {
	if len(encs) == 1 {
		return func(r int, dst []float64) { encs[0].Row(r, dst) }
	}
	return func(r int, dst []float64) {
		g := sort.SearchInts(starts[:len(encs)], r+1) - 1
		encs[g].Row(r-starts[g], dst)
	}
}

// EncodingAhead is EncodingRows' prefetch (Encoding.Ahead): it asks for
// the union's row r ahead of its read.
func EncodingAhead(encs []*Encoding, starts []int) func(r int) {
	if len(encs) == 1 {
		return encs[0].Ahead
	}
	return func(r int) {
		g := sort.SearchInts(starts[:len(encs)], r+1) - 1
		encs[g].Ahead(r - starts[g])
	}
}

// newBlock is an n × d dense block, stored in float32 when f32.
func newBlock(n, d int, f32 bool) *engine.Features {
	if f32 {
		return &engine.Features{N: n, DenseDim: d, Dense32: make([]float32, n*d)}
	}
	return &engine.Features{N: n, DenseDim: d, Dense: make([]float64, n*d)}
}
