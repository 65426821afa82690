package memplan

import (
	"fmt"
	"strings"
)

// A memory plan's parts and their accounting: when each part is live
// (the whole run, a phase, a step of a phase), the plan's total, and its
// refusal above --max-memory. Estimate (estimate.go) makes the parts.

// MemPart is one line of a memory plan: what it holds, its estimated bytes
// and the flag that shrinks it ("" when none does).
type MemPart struct {
	What  string `json:"what"`
	Bytes int64  `json:"bytes"`
	Flag  string `json:"flag,omitempty"`
	// Phase is when the part is live: "prepare" (freed before the model
	// is built: encoding scratch, the candidate skip block, the τ draw's
	// BFS rows), "train" (allocated after that: the model's buffers, the
	// evaluation's embeddings), or "" for the whole run. The total is the
	// whole-run parts plus the larger of the two phases.
	Phase string `json:"phase,omitempty"`
	// step, within a phase, is a stretch of it that no other step of the
	// phase overlaps ("" for the whole phase): the spilled encoding's BFS
	// rows are freed before the τ draw's are made, the spilled ranking
	// rows before an evaluation scores its pairs. A phase's peak is its
	// whole-phase parts plus its largest step.
	step string
}

// The phases of MemPart.
const (
	PhasePrepare = "prepare"
	PhaseTrain   = "train"
)

// Plan is a run's estimated peak memory, by part.
type Plan struct {
	Parts  []MemPart `json:"parts"`
	Total  int64     `json:"total_bytes"`
	BigRun bool      `json:"big_run"` // the run collects garbage at GOGC = BigRunGCPercent
	// Headroom is the factor every part but the runtime's was multiplied
	// by: the collector's, peak RSS over live heap.
	Headroom float64 `json:"headroom"`
	// Spill is the directory --spill auto chose because the run would not
	// fit --max-memory otherwise ("" when it spills nothing or was told
	// where): set by the caller that made that choice.
	Spill string `json:"spill,omitempty"`
}

// total is the whole-run parts plus the larger phase.
func (p Plan) total() int64 {
	whole, phases := p.Phases()
	var peak int64
	for _, ph := range phases {
		peak = max(peak, ph.Peak)
	}
	return whole.Peak + peak
}

// PlanPhase is one phase of a plan: the parts live through all of it, and
// its steps (stretches no other step of the phase overlaps), by name.
type PlanPhase struct {
	Name   string               `json:"name"`
	Common []MemPart            `json:"parts"`
	Steps  map[string][]MemPart `json:"steps,omitempty"`
	Peak   int64                `json:"peak_bytes"` // the common parts plus the largest step
}

// Phases splits p's parts (in p's order) into the whole run's (a phase
// named "" with no steps) and the phases' (prepare, then train).
func (p Plan) Phases() (whole PlanPhase, phases []PlanPhase) {
	for _, name := range []string{"", PhasePrepare, PhaseTrain} {
		ph := PlanPhase{Name: name, Steps: map[string][]MemPart{}}
		steps := map[string]int64{}
		for _, q := range p.Parts {
			switch {
			case q.Phase != name:
			case q.step == "":
				ph.Common = append(ph.Common, q)
				ph.Peak += q.Bytes
			default:
				ph.Steps[q.step] = append(ph.Steps[q.step], q)
				steps[q.step] += q.Bytes
			}
		}
		var top int64
		for _, b := range steps {
			top = max(top, b)
		}
		ph.Peak += top
		phases = append(phases, ph)
	}
	return phases[0], phases[1:]
}

// Check refuses a plan above limit with the estimate, its largest parts and
// the flags that lower them.
func (p Plan) Check(limit int64) error {
	if limit <= 0 || p.Total <= limit {
		return nil
	}
	var parts []string
	for _, q := range p.Parts[:min(3, len(p.Parts))] {
		s := fmt.Sprintf("%s %s", q.What, FormatBytes(q.Bytes))
		if q.Flag != "" {
			s += " (lower with " + q.Flag + ")"
		}
		parts = append(parts, s)
	}
	return fmt.Errorf("the run needs an estimated %s, above --max-memory %s; largest parts: %s",
		FormatBytes(p.Total), FormatBytes(limit), strings.Join(parts, "; "))
}
