package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// spillRows writes n random rows of width d to a spill in a test
// directory and returns it with the held copy.
func spillRows(t *testing.T, n, d int, rng *rand.Rand) (*data.Spill[float32], []float32) {
	t.Helper()
	z := make([]float32, n*d)
	for k := range z {
		z[k] = float32(rng.NormFloat64())
	}
	s, err := data.NewSpill[float32](t.TempDir(), n, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Append(z); err != nil {
		t.Fatal(err)
	}
	return s, z
}

// TestBlockDots: every pair's product read block by block is the held
// rows' engine.Dot64, bit for bit, whichever way round the pair is,
// within one block or across blocks, past the stream's stretch, for
// blocks of one row up to more than the whole file.
func TestBlockDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, d := 3*dotStream+77, 7
	s, z := spillRows(t, n, d, rng)
	var I, J []int32
	for range 20000 {
		i := rng.IntN(n)
		j := rng.IntN(n)
		if rng.IntN(4) == 0 { // near pairs: inside one block more often
			j = min(n-1, i+rng.IntN(5))
		}
		I, J = append(I, int32(i)), append(J, int32(j))
	}
	I, J = append(I, 0, int32(n-1), int32(n-1)), append(J, int32(n-1), 0, int32(n-1))
	for _, block := range []int{7, 1000, dotStream + 1, n, 2 * n} {
		out := make([]float64, len(I))
		blockDots(s.Block, s.Rows, d, I, J, out, block)
		for k := range I {
			i, j := int(I[k]), int(J[k])
			if want := engine.Dot64(z[i*d:(i+1)*d], z[j*d:(j+1)*d]); out[k] != want {
				t.Fatalf("block %d: pair %d (%d, %d): %v, want %v", block, k, i, j, out[k], want)
			}
		}
	}
}

// TestSpilledScores: a scorer run through SpilledScores sees the products
// SpilledDot gives, in the order it asks, and gets them from the blocks
// (no direct read) when its pairs do not depend on the values; one whose
// pairs do (it asks for more pairs where a product is positive) still
// gets the right products, the pairs off the recording read directly.
func TestSpilledScores(t *testing.T) {
	defer func(b int) { DotBlockBytes = b }(DotBlockBytes)
	rng := rand.New(rand.NewPCG(7, 8))
	n, d := 2000, 5
	s, z := spillRows(t, n, d, rng)
	DotBlockBytes = 300 * 4 * d // several blocks
	held := engine.RowDot(z, d)
	pairs := make([][2]int, 3000)
	for k := range pairs {
		pairs[k] = [2]int{rng.IntN(n), rng.IntN(n)}
	}
	for _, adaptive := range []bool{false, true} {
		var got, want []float64
		score := func(dot func(i, j int) float64, into *[]float64) {
			*into = (*into)[:0]
			for _, p := range pairs {
				v := dot(p[0], p[1])
				*into = append(*into, v)
				if adaptive && v > 0 {
					*into = append(*into, dot(p[1], (p[0]+1)%n))
				}
			}
		}
		runs := 0
		direct := SpilledScores(s, d, func(dot func(i, j int) float64) { runs++; score(dot, &got) })
		score(held, &want)
		if runs != 2 || len(got) != len(want) {
			t.Fatalf("adaptive %v: %d runs, %d products; want 2 runs, %d", adaptive, runs, len(got), len(want))
		}
		if (direct > 0) != adaptive {
			t.Fatalf("adaptive %v: %d pairs read directly", adaptive, direct)
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("adaptive %v: product %d is %v, want %v", adaptive, k, got[k], want[k])
			}
		}
	}
}

// BenchmarkBlockDots: blockDots over 5·10⁶ random pairs of a 10⁶ × 32
// matrix in ten blocks, the rows read from memory (the spilled path's
// bookkeeping and products without its disk reads).
func BenchmarkBlockDots(b *testing.B) {
	const n, d, p, block = 1_000_000, 32, 5_000_000, 100_000
	z := make([]float32, n*d)
	for i := range z {
		z[i] = float32(i%7) - 3
	}
	rows := func(lo, hi int, _ []float32) []float32 { return z[lo*d : hi*d] }
	rng := rand.New(rand.NewPCG(1, 2))
	I, J := make([]int32, p), make([]int32, p)
	for k := range I {
		I[k], J[k] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	out := make([]float64, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		blockDots(rows, n, d, I, J, out, block)
	}
}
