package engine

import "testing"

// TestProbedSlots: the probe's estimate is the slots up to slotLimit
// (SlotCap, or twice the seeds; at least 1024, at most N), and only
// beyond it is the batch cut.
func TestProbedSlots(t *testing.T) {
	for _, c := range []struct {
		estimate, seeds, n, slots int
		cut                       bool
	}{
		{500, 100, 10_000, 1024, false},
		{60_000, 4096, 1_000_000, 60_000, false},
		{SlotCap, 4096, 10_000_000, SlotCap, false},
		{SlotCap + 1, 4096, 10_000_000, SlotCap, true},
		{5_000_000, 4096, 100_000, SlotCap, true},
		{5_000_000, 4096, SlotCap, SlotCap, false},
		{5_000_000, 4096, 50_000, 50_000, false},
		{5_000_000, 200_000, 10_000_000, 400_000, true},
	} {
		slots, cut := ProbedSlots(c.estimate, c.seeds, c.n)
		if slots != c.slots || cut != c.cut {
			t.Errorf("ProbedSlots(%d, %d, %d) = %d, %v; want %d, %v", c.estimate, c.seeds, c.n, slots, cut, c.slots, c.cut)
		}
	}
}
