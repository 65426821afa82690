package run

import (
	"testing"
)

// TestCapacityThinning: the capacity reference's BFS draws are thinned
// only above CapacityFullNodes, and then keep to the budget of
// MSESources BFS over CapacityFullNodes nodes per epoch.
func TestCapacityThinning(t *testing.T) {
	cfg := Default()
	cfg.CapacitySampled = true // as grid.CapacityConfig sets it
	for _, c := range []struct{ n, sources, every int }{
		{CapacityFullNodes, 0, 0}, {2 * CapacityFullNodes, 32, 1}, {1_000_000, 8, 2}, {10_000_000, 8, 13},
	} {
		s, e := capacityThinning(cfg, c.n)
		if s != c.sources || e != c.every {
			t.Errorf("%d nodes: %d sources every %d epochs, want %d every %d", c.n, s, e, c.sources, c.every)
		}
		if e > 0 && int64(s)*int64(c.n) > int64(e)*int64(cfg.MSESources)*CapacityFullNodes {
			t.Errorf("%d nodes: over the BFS budget", c.n)
		}
	}
	if s, e := capacityThinning(Default(), 10_000_000); s != 0 || e != 0 {
		t.Error("a run that is not the capacity reference was thinned")
	}
}
