package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTrainPlan: train --plan prints the plan the run would check and
// stops before training: its JSON's total is the run's own
// memory_estimate_bytes, the whole run's parts plus the larger phase's
// peak, and each phase's peak its parts plus its largest step; the text
// names every part with the flag that lowers it, and a plan above
// --max-memory is printed, not refused.
func TestTrainPlan(t *testing.T) {
	args := []string{"train", "--dataset", "grid:30x30", "--epochs", "2", "--batch-steps", "50", "--quiet"} // the mini-batch recipe
	out, _, err := runCLI(append(args, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		MemoryEstimate int64 `json:"memory_estimate_bytes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(append(args, "--plan", "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var p planReport
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if p.Total != res.MemoryEstimate || p.Nodes != 900 || p.Edges != 1740 {
		t.Errorf("plan %d bytes for %d nodes, %d edges; the run planned %d for 900, 1740", p.Total, p.Nodes, p.Edges, res.MemoryEstimate)
	}
	var whole, top int64
	for _, q := range p.Whole {
		whole += q.Bytes
	}
	for _, ph := range p.Phases {
		var common, step int64
		for _, q := range ph.Common {
			common += q.Bytes
		}
		for _, qs := range ph.Steps {
			var b int64
			for _, q := range qs {
				b += q.Bytes
			}
			step = max(step, b)
		}
		if ph.Peak != common+step {
			t.Errorf("phase %s: peak %d, parts %d + largest step %d", ph.Name, ph.Peak, common, step)
		}
		top = max(top, ph.Peak)
	}
	if len(p.Phases) != 2 || p.Total != whole+top {
		t.Errorf("total %d, want whole %d + the larger phase %d (%d phases)", p.Total, whole, top, len(p.Phases))
	}
	text, _, err := runCLI(append(args, "--plan", "--max-memory", "1K", "--spill", "off")...)
	if err != nil {
		t.Fatalf("a plan above --max-memory is printed, not refused: %v", err)
	}
	for _, want := range []string{"memory plan: ", "ABOVE (the run would be refused) --max-memory 1 KB", "the whole run: ", "training and evaluation, at most", "(lower with --batch-size)"} {
		if !strings.Contains(text, want) {
			t.Errorf("--plan's text has no %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "AUC") {
		t.Errorf("--plan trained:\n%s", text)
	}
}
