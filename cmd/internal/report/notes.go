package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The notes under a comparison table: what its numbers alone do not say.
// They read the table's rows as named: a reference row's model starts
// with "(" ("(capacity)", "(skip path alone)"), every other row is a
// model's.

// AgreeWithin is how close (final-epoch mean AUC and τ) the rows of two or
// more models under one variant must be for the table to say that they
// agree: under the large-graph recipe GCN, SAGE and GIN land within 0.002
// of each other on every graph measured (docs/frontier.md), where their
// base rows differ by 0.01–0.1.
const AgreeWithin = 0.002

// CapacityShortAUC and CapacityShortTau are how far below the table's
// best model row (final mean AUC, final mean τ) the capacity row may end
// before the table says that it is not a reference there: a free table
// trained for its 1000 steps stops short of what its width holds on large
// graphs (caveman:5000x20: 0.556 / 0.246 against the recipe's 0.990 /
// 0.437, and at lr 0.003 or 0.01 no better: 0.551 / 0.238, 0.546 / 0.141)
// and under a ranking term that holds it from the link end
// (plc:20000:4:0.5: AUC 0.618 against 0.730).
const (
	CapacityShortAUC = 0.02
	CapacityShortTau = 0.05
)

// isReference reports whether r is a reference row (its model in brackets).
func isReference(r Row) bool { return strings.HasPrefix(r.Model, "(") }

// CapacityShort is the note when the row named capacity ends more than
// CapacityShortAUC below the best model row's final AUC or
// CapacityShortTau below its best final τ ("" otherwise); steps are the
// capacity row's training steps.
func CapacityShort(rows []Row, capacity string, steps int) string {
	var c *Row
	bestAUC, bestTau := math.Inf(-1), math.Inf(-1)
	for i, r := range rows {
		if r.Model == capacity {
			c = &rows[i]
		}
		if isReference(r) {
			continue
		}
		if !math.IsNaN(r.FinalAUC.Mean) {
			bestAUC = max(bestAUC, r.FinalAUC.Mean)
		}
		if !math.IsNaN(r.FinalTau.Mean) {
			bestTau = max(bestTau, r.FinalTau.Mean)
		}
	}
	if c == nil {
		return ""
	}
	var short []string
	if d := bestAUC - c.FinalAUC.Mean; d > CapacityShortAUC {
		short = append(short, fmt.Sprintf("%.3f below the best model row's final AUC", d))
	}
	if d := bestTau - c.FinalTau.Mean; d > CapacityShortTau {
		short = append(short, fmt.Sprintf("%.3f below its best final τ", d))
	}
	if len(short) == 0 {
		return ""
	}
	return fmt.Sprintf("the %s row ends %s: a free table trained for %d steps on the runs' objective stops short of what a model reaches here (a large graph, or a ranking term that holds it from the link end; docs/frontier-notes.md), so it is a point the table reached, not what the output width can hold",
		capacity, strings.Join(short, " and "), steps)
}

// Agreement is the note for each variant whose rows of two or more models
// agree within AgreeWithin on final AUC and τ: comparing those models
// says nothing here. With the rows named ablations of the same variant (the
// first: the recipe without its message passing; any other: without its
// trained layers, the skip path and the sketch), the note gives them beside
// the models, and why they agree.
func Agreement(rows []Row, ablations ...string) []string {
	type span struct {
		models       []string
		aucLo, aucHi float64
		tauLo, tauHi float64
		undefined    bool
	}
	spans, abl := map[string]*span{}, map[string][]Row{}
	var order []string
	for _, r := range rows {
		if slices.Contains(ablations, r.Model) {
			abl[r.Variant] = append(abl[r.Variant], r)
		}
		if isReference(r) {
			continue
		}
		sp := spans[r.Variant]
		if sp == nil {
			sp = &span{aucLo: math.Inf(1), aucHi: math.Inf(-1), tauLo: math.Inf(1), tauHi: math.Inf(-1)}
			spans[r.Variant] = sp
			order = append(order, r.Variant)
		}
		a, t := r.FinalAUC.Mean, r.FinalTau.Mean
		sp.undefined = sp.undefined || math.IsNaN(a) || math.IsNaN(t)
		sp.models = append(sp.models, r.Model)
		sp.aucLo, sp.aucHi = min(sp.aucLo, a), max(sp.aucHi, a)
		sp.tauLo, sp.tauHi = min(sp.tauLo, t), max(sp.tauHi, t)
	}
	var notes []string
	for _, v := range order {
		sp := spans[v]
		if len(sp.models) < 2 || sp.undefined || sp.aucHi-sp.aucLo > AgreeWithin || sp.tauHi-sp.tauLo > AgreeWithin {
			continue
		}
		n := fmt.Sprintf("%s give the same final AUC (%s) and τ (%s) under %s, within %g: the table cannot tell these models apart on this graph",
			joinAnd(sp.models), between(sp.aucLo, sp.aucHi), between(sp.tauLo, sp.tauHi), v, AgreeWithin)
		if as := abl[v]; len(as) > 0 {
			var read []string
			for _, a := range as {
				what := "no message passing"
				if slices.Index(ablations, a.Model) > 0 {
					what = "no trained layers"
				}
				read = append(read, fmt.Sprintf("the %s row (%s) reads %.3f and %.3f", a.Model, what, a.FinalAUC.Mean, a.FinalTau.Mean))
			}
			n += "; " + strings.Join(read, ", ") + ". Under the large-graph recipe, training brings the layers to one function, a smoothing of the positional input that each model can express, and the neighbourhood sketch (--sketch) has no parameters (docs/frontier-notes.md, fifth and sixth sessions)"
		}
		notes = append(notes, n)
	}
	return notes
}

// between is "0.927" or "0.927–0.928", at three decimals.
func between(lo, hi float64) string {
	a, b := fmt.Sprintf("%.3f", lo), fmt.Sprintf("%.3f", hi)
	if a == b {
		return a
	}
	return a + "–" + b
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// NotesText is notes as lines "note: …", each followed by a blank line
// ("" without notes), for text and markdown tables.
func NotesText(notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("note: " + n + "\n\n")
	}
	return b.String()
}
