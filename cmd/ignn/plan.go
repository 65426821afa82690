package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/ignn/ignn/cmd/internal/memplan"
)

// planReport is train --plan's JSON: the memory plan by phase and step.
type planReport struct {
	Nodes     int                 `json:"nodes"`
	Edges     int                 `json:"edges"`
	Total     int64               `json:"total_bytes"`
	MaxMemory int64               `json:"max_memory_bytes"`
	Headroom  float64             `json:"headroom"`
	BigRun    bool                `json:"big_run"`
	Spill     string              `json:"spill,omitempty"`
	Whole     []memplan.MemPart   `json:"whole_run"`
	Phases    []memplan.PlanPhase `json:"phases"`
}

// writePlan prints train --plan: the plan's peak, then every part by when
// it is live — the whole run, the preparation, the training — with a
// phase's steps (never live together: the largest counts), and the flag
// that lowers each.
func writePlan(w io.Writer, p memplan.Plan, limit int64, nodes, edges int, asJSON bool) error {
	whole, phases := p.Phases()
	if asJSON {
		return json.NewEncoder(w).Encode(planReport{nodes, edges, p.Total, limit, p.Headroom, p.BigRun, p.Spill, whole.Common, phases})
	}
	fit := "within"
	if limit > 0 && p.Total > limit {
		fit = "ABOVE (the run would be refused)"
	}
	fmt.Fprintf(w, "memory plan: %s at the peak for %d nodes and %d edges, %s --max-memory %s\n", memplan.FormatBytes(p.Total), nodes, edges, fit, memplan.FormatBytes(limit))
	gc := "100"
	if p.BigRun {
		gc = fmt.Sprint(memplan.BigRunGCPercent)
	}
	fmt.Fprintf(w, "the collector at GOGC %s; each part is its live bytes × %.1f (the collector's headroom)", gc, p.Headroom)
	if p.Spill != "" {
		fmt.Fprintf(w, "; spilled into %s (--spill auto: the run would not fit otherwise)", p.Spill)
	}
	fmt.Fprintf(w, "\n\nthe whole run: %s\n", memplan.FormatBytes(whole.Peak))
	parts(w, whole.Common, "  ")
	peak := slices.MaxFunc(phases, func(a, b memplan.PlanPhase) int { return cmp.Compare(a.Peak, b.Peak) })
	for _, ph := range phases {
		what := map[string]string{memplan.PhasePrepare: "preparation (freed before the model is built)", memplan.PhaseTrain: "training and evaluation"}[ph.Name]
		mark := ""
		if ph.Name == peak.Name {
			mark = ": the larger phase, counted"
		}
		fmt.Fprintf(w, "\n%s, at most %s%s\n", what, memplan.FormatBytes(ph.Peak), mark)
		parts(w, ph.Common, "  ")
		if len(ph.Steps) > 0 {
			fmt.Fprintln(w, "  one of these steps at a time (the largest counted):")
			names := make([]string, 0, len(ph.Steps))
			for name := range ph.Steps {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				var b int64
				for _, q := range ph.Steps[name] {
					b += q.Bytes
				}
				fmt.Fprintf(w, "    %s: %s\n", name, memplan.FormatBytes(b))
				parts(w, ph.Steps[name], "      ")
			}
		}
	}
	return nil
}

func parts(w io.Writer, ps []memplan.MemPart, indent string) {
	for _, q := range ps {
		flag := ""
		if q.Flag != "" {
			flag = " (lower with " + q.Flag + ")"
		}
		fmt.Fprintf(w, "%s%9s  %s%s\n", indent, memplan.FormatBytes(q.Bytes), q.What, flag)
	}
}
