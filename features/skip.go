package features

import (
	"fmt"

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

// SkipBlocks builds the skip path's input from the k positional columns of
// x that start at column col: the columns as they are, standardised
// (Standardise), or their polar cone (Polar; starts holds each graph's
// first row, then N). With SkipPolarOn it returns the cone alone; with
// SkipPolarAuto the standardised block and the cone, for the caller to
// choose between; otherwise the columns (standardised when standardise)
// and nil. Every value is computed in float64 from x's values, row by row
// (no N × k float64 copy), and stored as float32 (Dense32) when f32, for
// float32 runs. x is not modified. O(N·k).
func SkipBlocks(x *engine.Features, col, k int, starts []int, mode SkipPolar, standardise, f32 bool) (block, polar *engine.Features) {
	n := x.N
	read := func(r int, dst []float64) {
		for j := range dst {
			dst[j] = x.At(r*x.DenseDim + col + j)
		}
	}
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

// newBlock is an n × d dense block, stored in float32 when f32.
func newBlock(n, d int, f32 bool) *engine.Features {
	if f32 {
		return &engine.Features{N: n, DenseDim: d, Dense32: make([]float32, n*d)}
	}
	return &engine.Features{N: n, DenseDim: d, Dense: make([]float64, n*d)}
}
