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
			n += fmt.Sprintf("; the %s row (no message passing) reads %.3f and %.3f. Under the large-graph recipe, training brings the layers to one function, a smoothing of the positional input that each model can express (docs/frontier-notes.md, fifth session)",
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
