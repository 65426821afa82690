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
// and nil. x is not modified. O(N·k).
func SkipBlocks(x *engine.Features, col, k int, starts []int, mode SkipPolar, standardise bool) (block, polar *engine.Features) {
	sk := &engine.Features{N: x.N, DenseDim: k, Dense: make([]float64, x.N*k)}
	for r := 0; r < x.N; r++ {
		copy(sk.Dense[r*k:(r+1)*k], x.Dense[r*x.DenseDim+col:])
	}
	if mode != SkipPolarOff {
		polar = &engine.Features{N: x.N, DenseDim: k + 1, Dense: Polar(sk.Dense, x.N, k, starts)}
	}
	switch {
	case mode == SkipPolarOn:
		return polar, nil
	case standardise || mode == SkipPolarAuto:
		Standardise(sk.Dense, x.N, k)
	}
	return sk, polar
}
