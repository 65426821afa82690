package eval

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/ignn/ignn/engine"
)

// TestRowDots: the bulk products are RowDot's bit for bit, float32 and
// float64, widths 1, 5 and 32, on one and two goroutines, pairs fewer and
// more than the prefetch distance and a worker's minimum.
func TestRowDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 5, 32} {
		const n = 500
		z64 := make([]float64, n*d)
		for i := range z64 {
			z64[i] = rng.NormFloat64()
		}
		z32 := make([]float32, len(z64))
		for i, v := range z64 {
			z32[i] = float32(v)
		}
		for _, p := range []int{0, 3, 17, 20_000} {
			I, J := make([]int32, p), make([]int32, p)
			for k := range I {
				I[k], J[k] = int32(rng.IntN(n)), int32(rng.IntN(n))
			}
			for _, procs := range []int{1, 2} {
				old := runtime.GOMAXPROCS(procs)
				got32, got64 := make([]float64, p), make([]float64, p)
				RowDots(z32, d, I, J, got32)
				RowDots(z64, d, I, J, got64)
				runtime.GOMAXPROCS(old)
				dot32, dot64 := engine.RowDot(z32, d), engine.RowDot(z64, d)
				for k := range I {
					if math.Float64bits(got32[k]) != math.Float64bits(dot32(int(I[k]), int(J[k]))) ||
						math.Float64bits(got64[k]) != math.Float64bits(dot64(int(I[k]), int(J[k]))) {
						t.Fatalf("d %d, %d pairs, GOMAXPROCS %d: pair %d's product differs from RowDot's", d, p, procs, k)
					}
				}
			}
		}
	}
}

// TestPairTape: the first evaluation records the pairs in the order asked
// (answered by engine.RowDot); the next answers them from the tape's
// products, the same numbers; a pair asked off the tape is computed as
// asked, and the tape is dropped, to be recorded again.
func TestPairTape(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d = 300, 5
	z := make([]float32, n*d)
	for i := range z {
		z[i] = float32(rng.NormFloat64())
	}
	I, J := make([]int, 5000), make([]int, 5000)
	for k := range I {
		I[k], J[k] = rng.IntN(n), rng.IntN(n)
	}
	want := engine.RowDot(z, d)
	var tape PairTape
	scores := func(skip int) (off int) {
		t.Helper()
		dot := TapeSimilarity(&tape, z, d)
		for k := range I {
			i := I[k]
			if k == skip {
				i = (i + 1) % n
			}
			if got, w := dot(i, J[k]), want(i, J[k]); got != w {
				t.Fatalf("pair %d: %v, want %v", k, got, w)
			}
		}
		off = tape.off
		tape.Done()
		return off
	}
	if off := scores(-1); off != 0 || tape.Recorded() != len(I) || len(tape.dots) != 0 {
		t.Fatalf("the recording: %d pairs off, %d recorded, %d products", off, tape.Recorded(), len(tape.dots))
	}
	if off := scores(-1); off != 0 || len(tape.dots) != len(I) {
		t.Fatalf("from the tape: %d pairs off, %d products", off, len(tape.dots))
	}
	if off := scores(len(I) / 2); off == 0 || tape.Recorded() != 0 {
		t.Fatalf("a tape the scorers left: %d pairs off, %d kept", off, tape.Recorded())
	}
	if scores(-1); tape.Recorded() != len(I) {
		t.Fatalf("recorded again: %d pairs, want %d", tape.Recorded(), len(I))
	}
}

// BenchmarkRowDots: 2·10⁶ random row pairs of a 10⁷ × 32 float32 matrix
// (a 10⁷-node run's τ sample against its embeddings; 1.3 GB): as the
// scorers asked for them before the tape, one RowDot call at a time, and
// in bulk by RowDots.
func BenchmarkRowDots(b *testing.B) {
	const n, d, p = 10_000_000, 32, 2_000_000
	z := make([]float32, n*d)
	for i := range z {
		z[i] = float32(i%7) - 3
	}
	rng := rand.New(rand.NewPCG(1, 2))
	I, J := make([]int32, p), make([]int32, p)
	for k := range I {
		I[k], J[k] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	out := make([]float64, p)
	b.Run("one-at-a-time", func(b *testing.B) {
		dot := engine.RowDot(z, d)
		for it := 0; it < b.N; it++ {
			for k := range I {
				out[k] = dot(int(I[k]), int(J[k]))
			}
		}
	})
	b.Run("RowDots", func(b *testing.B) {
		for it := 0; it < b.N; it++ {
			RowDots(z, d, I, J, out)
		}
	})
}
