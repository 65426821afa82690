package run

import (
	"fmt"
	"testing"

	"github.com/ignn/ignn/objective"
)

// TestCapacityThinning: the capacity reference's ranking sources are a
// pool of capacityPoolSources BFS rows (fewer where they would pass
// capacityPoolBytes, never fewer than capacityMinSources), redrawn every
// few epochs within capacityPoolBFS BFS and capacityPoolVisits node
// visits an epoch; the memory plan counts the pool; other runs are not
// thinned.
func TestCapacityThinning(t *testing.T) {
	cfg := Default()
	cfg.CapacitySampled = true // as grid.CapacityConfig sets it
	cfg.DistanceLoss = objective.DistanceRank
	for _, c := range []struct{ n, sources, every int }{
		{1000, 256, 16}, {20_000, 256, 16}, {CapacityFullNodes, 256, 16}, {2 * CapacityFullNodes, 256, 32}, {1_000_000, 134, 84}, {10_000_000, 13, 82}, {100_000_000, 8, 500},
	} {
		s, e := capacityThinning(cfg, c.n)
		if s != c.sources || e != c.every {
			t.Errorf("%d nodes: %d sources every %d epochs, want %d every %d", c.n, s, e, c.sources, c.every)
		}
		if int64(s)*int64(c.n) > int64(e)*min(capacityPoolVisits, capacityPoolBFS*int64(c.n)) {
			t.Errorf("%d nodes: over the BFS budget", c.n)
		}
		if s > capacityMinSources && 2*int64(s)*int64(c.n) > capacityPoolBytes {
			t.Errorf("%d nodes: a pool of %d rows passes %d bytes", c.n, s, capacityPoolBytes)
		}
		if got := rankSources(cfg, c.n); got != s {
			t.Errorf("%d nodes: the plan counts %d sources' rows, the pool holds %d", c.n, got, s)
		}
	}
	if s, e := capacityThinning(Default(), 10_000_000); s != 0 || e != 0 {
		t.Error("a run that is not the capacity reference was thinned")
	}
	if got := rankSources(Default(), 10_000_000); got != Default().MSESources {
		t.Errorf("a run's ranking rows: %d sources, want --mse-sources %d", got, Default().MSESources)
	}
}

// TestBCESample: with BCESample m a whole-graph step's link term reads m
// training positives of the graph (drawn from its training edges) and m
// fresh negatives, the same draws for the same seed; 0 reads every
// positive; a negative sample or one beside mini-batches is refused.
func TestBCESample(t *testing.T) {
	cfg := Default()
	cfg.Dataset, cfg.Variant, cfg.Epochs, cfg.EvalEvery = "caveman:8x6", Base, 2, 1
	draws := func(m int) [][3]int {
		c := cfg
		c.BCESample = m
		c, _, p := prepared(t, c)
		b, err := Build(p, c)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		var out [][3]int
		for epoch := range 2 {
			if err := b.Feed(epoch); err != nil {
				t.Fatal(err)
			}
			train := map[[2]int]bool{}
			for _, q := range p.Splits[0].Train {
				i, j := p.Union.GlobalPair(0, q)
				train[[2]int{i, j}] = true
			}
			pos := 0
			for k := range b.bce.Len() {
				i, j, v := b.bce.I[k], b.bce.J[k], b.bce.V[k]
				if v == 1 {
					pos++
					if !train[[2]int{i, j}] {
						t.Fatalf("sample %d: positive (%d, %d) is not a training edge", m, i, j)
					}
				} else if train[[2]int{i, j}] {
					t.Fatalf("sample %d: negative (%d, %d) is a training edge", m, i, j)
				}
				out = append(out, [3]int{i, j, int(v)})
			}
			want := len(p.Splits[0].Train)
			if m > 0 {
				want = m
			}
			if pos != want || b.bce.Len() != 2*want {
				t.Fatalf("sample %d: %d positives of %d pairs, want %d of %d", m, pos, b.bce.Len(), want, 2*want)
			}
		}
		return out
	}
	draws(0)
	a, b := draws(20), draws(20)
	if len(a) != 80 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("two runs of one seed drew %v and %v", a, b)
	}
	if fmt.Sprint(a[:40]) == fmt.Sprint(a[40:]) {
		t.Fatal("the two steps drew the same sample")
	}
	for _, c := range []struct {
		m, batch int
	}{{-1, 0}, {20, 64}} {
		bad := cfg
		bad.BCESample, bad.BatchSize = c.m, c.batch
		if err := bad.Validate(); err == nil {
			t.Errorf("sample %d with batch size %d accepted", c.m, c.batch)
		}
	}
}
