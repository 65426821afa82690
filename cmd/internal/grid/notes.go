package grid

import (
	"fmt"
	"math"
	"strings"

	"github.com/ignn/ignn/cmd/internal/report"
)

// AgreeWithin is how close (final-epoch mean AUC and τ) the rows of two or
// more models under one variant must be for the table to say that they
// agree: under the large-graph recipe GCN, SAGE and GIN land within 0.002
// of each other on every graph measured (docs/frontier.md), where their
// base rows differ by 0.01–0.1.
const AgreeWithin = 0.002

// CapacityShortAUC and CapacityShortTau are how far below the table's
// best model row (final mean AUC, final mean τ) the (capacity) row may end
// before the table says that it is not a reference there: a free table
// trained for CapacityEpochs steps stops short of what its width holds on
// large graphs (caveman:5000x20: 0.556 / 0.246 against the recipe's 0.990 /
// 0.437, and at lr 0.003 or 0.01 no better: 0.551 / 0.238, 0.546 / 0.141)
// and under a ranking term that holds it from the link end
// (plc:20000:4:0.5: AUC 0.618 against 0.730).
const (
	CapacityShortAUC = 0.02
	CapacityShortTau = 0.05
)

// capacityShort is the table's note when the (capacity) row ends more
// than CapacityShortAUC below its best model row's final AUC or
// CapacityShortTau below its best final τ ("" otherwise).
func capacityShort(rows []report.Row, refs map[int]Job) string {
	capRow := -1
	bestAUC, bestTau := math.Inf(-1), math.Inf(-1)
	for i, r := range rows {
		if j, ref := refs[i]; ref {
			if j.IsCapacity() {
				capRow = i
			}
			continue
		}
		if !math.IsNaN(r.FinalAUC.Mean) {
			bestAUC = max(bestAUC, r.FinalAUC.Mean)
		}
		if !math.IsNaN(r.FinalTau.Mean) {
			bestTau = max(bestTau, r.FinalTau.Mean)
		}
	}
	if capRow < 0 {
		return ""
	}
	c := rows[capRow]
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
		CapacityRow, strings.Join(short, " and "), CapacityEpochs)
}

// agreement is the table's note for each variant whose rows of two or
// more models agree within AgreeWithin on final AUC and τ: comparing those
// models says nothing here. With the (skip path alone) row of the same
// input, the note gives it beside them, and why they agree.
func agreement(rows []report.Row, refs map[int]Job) []string {
	type span struct {
		models       []string
		aucLo, aucHi float64
		tauLo, tauHi float64
		abl          *report.Row
		undefined    bool
	}
	byVariant := map[string]*span{}
	var order []string
	for i, r := range rows {
		if j, ref := refs[i]; ref {
			if j.IsAblation() {
				j.Ablation = false
				if sp := byVariant[j.Label()]; sp != nil {
					sp.abl = &rows[i]
				} else {
					byVariant[j.Label()] = &span{abl: &rows[i], aucLo: math.Inf(1), aucHi: math.Inf(-1), tauLo: math.Inf(1), tauHi: math.Inf(-1)}
					order = append(order, j.Label())
				}
			}
			continue
		}
		if strings.HasPrefix(r.Model, "(") {
			continue
		}
		sp := byVariant[r.Variant]
		if sp == nil {
			sp = &span{aucLo: math.Inf(1), aucHi: math.Inf(-1), tauLo: math.Inf(1), tauHi: math.Inf(-1)}
			byVariant[r.Variant] = sp
			order = append(order, r.Variant)
		}
		a, t := r.FinalAUC.Mean, r.FinalTau.Mean
		if math.IsNaN(a) || math.IsNaN(t) {
			sp.undefined = true
		}
		sp.models = append(sp.models, r.Model)
		sp.aucLo, sp.aucHi = min(sp.aucLo, a), max(sp.aucHi, a)
		sp.tauLo, sp.tauHi = min(sp.tauLo, t), max(sp.tauHi, t)
	}
	var notes []string
	for _, v := range order {
		sp := byVariant[v]
		if len(sp.models) < 2 || sp.undefined || sp.aucHi-sp.aucLo > AgreeWithin || sp.tauHi-sp.tauLo > AgreeWithin {
			continue
		}
		n := fmt.Sprintf("%s give the same final AUC (%s) and τ (%s) under %s, within %g: the table cannot tell these models apart on this graph",
			joinAnd(sp.models), between(sp.aucLo, sp.aucHi), between(sp.tauLo, sp.tauHi), v, AgreeWithin)
		if sp.abl != nil {
			n += fmt.Sprintf("; the %s row (no message passing) reads %.3f and %.3f. Under the large-graph recipe, training brings the layers to one function, a smoothing of the positional input that each model can express, and the neighbourhood sketch (--sketch) has no parameters (docs/frontier-notes.md, fifth session)",
				AblationRow, sp.abl.FinalAUC.Mean, sp.abl.FinalTau.Mean)
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

// NotesText is the notes as lines "note: …", each followed by a blank line
// ("" without notes), for text and markdown tables.
func (c *Comparison) NotesText() string {
	var b strings.Builder
	for _, n := range c.Notes {
		b.WriteString("note: " + n + "\n\n")
	}
	return b.String()
}
