package run

import (
	"reflect"
	"testing"
)

// TestValSampleDisjointAndSeeded: on the exact path every validation pair
// holds one of the anchors the held-out test τ leaves out; on the sampled
// path no validation pair has an endpoint among the τ sample's sources,
// which every τ pair has. Both are the same for one and two workers and a
// function of the seed.
func TestValSampleDisjointAndSeeded(t *testing.T) {
	for _, dist := range []DistanceSource{DistExact, DistSampled} {
		var samples []*valSample
		for _, w := range []int{1, 2} {
			cfg := shortRun("gcn")
			cfg.Dataset, cfg.Distances, cfg.Workers = "grid:20x20", dist, w
			cfg.TauSources, cfg.TauPairs = 64, 20000
			_, _, p := prepared(t, cfg)
			v := newValSample(p, cfg)
			samples = append(samples, v)
			if v.pairs.Len() < 100 || len(v.tri) < 10 {
				t.Fatalf("%s: %d pairs, %d triples", dist, v.pairs.Len(), len(v.tri))
			}
			if dist == DistExact {
				anchors := 0
				for _, a := range v.exclude {
					if a {
						anchors++
					}
				}
				if anchors != 40 {
					t.Fatalf("exact: %d anchors in 400 nodes, want 40", anchors)
				}
				seen := map[[2]int32]bool{}
				for k := range v.pairs.I {
					i, j := v.pairs.I[k], v.pairs.J[k]
					if !v.exclude[i] && !v.exclude[j] {
						t.Fatalf("exact: validation pair (%d, %d) has no anchor: the held-out test τ would count it", i, j)
					}
					key := [2]int32{min(i, j), max(i, j)}
					if seen[key] {
						t.Fatalf("exact: pair %v twice", key)
					}
					seen[key] = true
				}
				continue
			}
			src := map[int32]bool{}
			for _, i := range p.TauSample.I {
				src[i] = true
			}
			for k := range v.pairs.I {
				if src[v.pairs.I[k]] || src[v.pairs.J[k]] {
					t.Fatalf("sampled: validation pair (%d, %d) touches a τ source", v.pairs.I[k], v.pairs.J[k])
				}
			}
		}
		if !reflect.DeepEqual(samples[0], samples[1]) {
			t.Fatalf("%s: the sample differs between one and two workers", dist)
		}
	}
}
