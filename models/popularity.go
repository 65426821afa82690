package models

import (
	"fmt"
	"strconv"
)

// The popularity column an embedding with a skip path may end with
// (Config.Popularity, Config.PopularityAuto; Output appends it).

// PopularityScale is A of Config.Popularity: the column's scale beside a
// unit embedding. The bias's ratio to the model's cosine does not depend
// on it, only the higher-order terms do; at 3 the cosines stay in about
// [0.8, 1] (Email, seed 1: A 3, 10 and 30 agree to ±0.0006 in AUC and τ).
const PopularityScale = 3

// PopularityShare is the engine.Mix share that puts the column at
// PopularityScale beside a unit row: [√W·ẑ | √(1−W)·k] ∝ [ẑ | A·k].
const PopularityShare = 1.0 / (1 + PopularityScale*PopularityScale)

// PopularityWeights are the weights b Config.PopularityAuto chooses among
// on the validation pairs, 0 (the column unused) first: the grid the
// ninth session measured (docs/frontier-notes.md), where 0.03 gained on
// every heavy-tailed graph and 0.1 and 0.3 gained more AUC on some and
// cost others τ.
var PopularityWeights = []float64{0, 0.03, 0.1, 0.3}

// HasPopularity reports whether the embedding ends with the popularity
// column: a weight b > 0, or one chosen on the validation pairs.
func (c Config) HasPopularity() bool { return c.Popularity > 0 || c.PopularityAuto }

// ParsePopularity reads --popularity: "off" (or 0), "auto" (the weight
// chosen on the validation pairs at every evaluation), or a weight b in
// (0, 1].
func ParsePopularity(s string) (b float64, auto bool, err error) {
	switch s {
	case "off", "":
		return 0, false, nil
	case "auto":
		return 0, true, nil
	}
	b, err = strconv.ParseFloat(s, 64)
	if err != nil || !(b >= 0 && b <= 1) {
		return 0, false, fmt.Errorf("--popularity must be off, auto or a weight in [0, 1] (0 = off), got %q", s)
	}
	return b, false, nil
}

// PopularityString is --popularity's value for c.
func (c Config) PopularityString() string {
	switch {
	case c.PopularityAuto:
		return "auto"
	case c.Popularity > 0:
		return strconv.FormatFloat(c.Popularity, 'g', -1, 64)
	}
	return "off"
}
