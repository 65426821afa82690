package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKeyHash: add and has agree with a map over 5,000 random insertions
// into a set made for 5,000 keys (some repeat, so add must report them), and
// over 20,000 lookups of present and absent keys; reset empties it.
func TestKeyHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h, want := newKeyHash(5000), map[uint64]bool{}
	for range 5000 {
		k := key(rng.IntN(300), 300+rng.IntN(300)) // ≈ 90,000 keys: some repeat
		if got := h.add(k); got != !want[k] {
			t.Fatalf("add(%x) = %v with the key already in: %v", k, got, want[k])
		}
		want[k] = true
	}
	for range 20000 {
		k := key(rng.IntN(300), 300+rng.IntN(300))
		if h.has(k) != want[k] {
			t.Fatalf("has(%x) = %v, want %v", k, h.has(k), want[k])
		}
	}
	h.reset()
	for k := range want {
		if h.has(k) {
			t.Fatalf("has(%x) after reset", k)
		}
	}
}

// unhashed hides a pair set's type, so hashed draws are not used on it.
type unhashed struct{ pairSet }

// TestHashedDrawsEqual: a whole-graph step's training negatives drawn
// through the hash sets are the very pairs, in order, that the sorted sets
// give, epoch after epoch — on a link split (the edges as the positives) and
// a pair split (keys) — and they avoid every positive and fixed negative.
func TestHashedDrawsEqual(t *testing.T) {
	ds, err := Generate("ba:3000:4", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	pairDS, err := Communities(DefaultCommunities, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		g    *Graph
		task Task
	}{{ds.Graphs[0], TaskLink}, {pairDS.Graphs[0], TaskPair}} {
		a, err := NewSplit(c.g, c.task, rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewSplit(c.g, c.task, rand.New(rand.NewPCG(2, 2)))
		b.pos = unhashed{b.pos}
		k := max(hashedDraw, len(a.Train))
		if 4*k >= a.CandidateNegatives-len(a.fixedNeg) {
			k = (a.CandidateNegatives - len(a.fixedNeg)) / 5
		}
		if k < hashedDraw {
			t.Fatalf("%s: a draw of %d is too small to be hashed", c.task, k)
		}
		ra, rb := rand.New(rand.NewPCG(3, 3)), rand.New(rand.NewPCG(3, 3))
		for epoch := range 3 {
			got := slices.Clone(a.SampleTrainNegatives(ra, k))
			want := b.SampleTrainNegatives(rb, k)
			if a.excluded == nil || b.excluded != nil {
				t.Fatalf("%s: hashed sets %v / %v", c.task, a.excluded != nil, b.excluded != nil)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s epoch %d: hashed draws differ from the sorted sets' (%d vs %d pairs)", c.task, epoch, len(got), len(want))
			}
			seen := map[Pair]bool{}
			for _, p := range got {
				kk := key(int(p.I), int(p.J))
				if a.IsPositive(int(p.I), int(p.J)) || a.fixedNeg.has(kk) || seen[p] || p.I >= p.J {
					t.Fatalf("%s: drew %v (positive, fixed, repeated or unordered)", c.task, p)
				}
				seen[p] = true
			}
		}
	}
}
