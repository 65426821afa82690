package engine

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestFillMask: a small mask is drawMask's, from the same stream; a large
// one has dropped about p of its entries, keeps 1/(1−p) elsewhere, is the
// same for one or two cores, and moves the stream by one draw.
func TestFillMask(t *testing.T) {
	small, ref := make([]float32, 1000), make([]float32, 1000)
	fillMask(rand.New(rand.NewPCG(1, 2)), 0.5, small)
	drawMask(rand.New(rand.NewPCG(1, 2)), 0.5, ref)
	if !slices.Equal(small, ref) {
		t.Fatal("a small mask differs from drawMask's")
	}
	draw := func(procs int) ([]float32, uint64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		rng := rand.New(rand.NewPCG(3, 4))
		d := make([]float32, 3*parallelMask+7)
		fillMask(rng, 0.3, d)
		return d, rng.Uint64()
	}
	one, next1 := draw(1)
	two, next2 := draw(2)
	if !slices.Equal(one, two) || next1 != next2 {
		t.Fatal("the large mask depends on GOMAXPROCS")
	}
	// Each range is its own PCG stream seeded by (seed, range): the
	// branching loop fillMask had before the bit select, entry by entry.
	seed := rand.New(rand.NewPCG(3, 4)).Uint64()
	b := evenBounds(len(one))
	for c := range rowChunks {
		r := rand.NewPCG(seed, uint64(c))
		for k := b[c]; k < b[c+1]; k++ {
			want := float32(0)
			if p := 0.3; r.Uint64()>>11 >= uint64(p*(1<<53)) {
				want = float32(1 / (1 - 0.3))
			}
			if one[k] != want {
				t.Fatalf("entry %d (range %d): %v, want %v", k, c, one[k], want)
			}
		}
	}
	after := rand.New(rand.NewPCG(3, 4))
	after.Uint64() // the mask's seed
	if next1 != after.Uint64() {
		t.Fatal("the stream did not move by exactly one draw")
	}
	zeros := 0
	keep := float32(1 / (1 - 0.3))
	for _, v := range one {
		switch v {
		case 0:
			zeros++
		case keep:
		default:
			t.Fatalf("mask value %v", v)
		}
	}
	if f := float64(zeros) / float64(len(one)); math.Abs(f-0.3) > 0.005 {
		t.Fatalf("dropped %.4f of the entries, want 0.3", f)
	}
}
