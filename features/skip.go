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
func SkipBlocks(read RowReader, n, k int, starts []int, mode SkipPolar, standardise, f32 bool) (block, polar *engine.Features) {
	var st Stats
	if mode != SkipPolarOff || standardise {
		st = ColumnStats(read, n, k)
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
	for r := 0; r < n; r++ {
		read(r, row)
		if standardise || mode == SkipPolarAuto {
			st.Apply(row)
		}
		block.SetRow(r, row)
	}
	return block, polar
}

// ColumnsOf reads columns col … col+k−1 of x's dense part (its stored
// values: rounded to float32 in compacted features).
func ColumnsOf(x *engine.Features, col int) RowReader {
	return func(r int, dst []float64) {
		for j := range dst {
			dst[j] = x.At(r*x.DenseDim + col + j)
		}
	}
}

// EncodingRows reads the union's rows of per-graph encodings (graph g's
// rows start at starts[g]), exactly.
func EncodingRows(encs []*Encoding, starts []int) RowReader {
	g := 0
	return func(r int, dst []float64) {
		if r < starts[g] || r >= starts[g]+encs[g].N { // rows are mostly read in order
			g = sort.SearchInts(starts[:len(encs)], r+1) - 1
		}
		encs[g].Row(r-starts[g], dst)
	}
}

// newBlock is an n × d dense block, stored in float32 when f32.
func newBlock(n, d int, f32 bool) *engine.Features {
	if f32 {
		return &engine.Features{N: n, DenseDim: d, Dense32: make([]float32, n*d)}
	}
	return &engine.Features{N: n, DenseDim: d, Dense: make([]float64, n*d)}
}
