package run

import (
	"fmt"
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
				rowDots(z32, d, I, J, got32)
				rowDots(z64, d, I, J, got64)
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

// TestPairTape: a run's evaluations on the sampled path give the same
// scores whether their products come off the tape or as asked; the first
// evaluation records, the later ones answer every pair from the tape; a
// tape the scorers leave (a pair off it) is answered as asked, the same
// numbers, and recorded again.
func TestPairTape(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
	cfg.Distances = DistSampled
	rc, _, p := prepared(t, cfg)
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.p.Exact() {
		t.Fatal("the test wants the sampled path")
	}
	scores := func() string {
		t.Helper()
		s, _, err := c.Evaluate()
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%+v %+v", s, c.lastVal)
	}
	first := scores()
	recorded := len(c.tape.i)
	if recorded == 0 || len(c.tape.dots) != 0 {
		t.Fatalf("the first evaluation recorded %d pairs (%d products): want a recording, no products", recorded, len(c.tape.dots))
	}
	if again := scores(); again != first || c.tape.off != 0 || len(c.tape.dots) != recorded {
		t.Fatalf("from the tape: %d pairs off it, %d products of %d; equal scores: %v\n%.300s\n%.300s",
			c.tape.off, len(c.tape.dots), recorded, again == first, again, first)
	}
	c.tape.i[recorded/2]++ // a pair the scorers will not ask for
	if left := scores(); left != first || c.tape.i != nil {
		t.Fatalf("a tape the scorers left: equal scores %v, tape kept %v", left == first, c.tape.i != nil)
	}
	if again := scores(); again != first || len(c.tape.i) != recorded {
		t.Fatalf("recorded again: %d pairs (want %d), equal scores %v", len(c.tape.i), recorded, again == first)
	}
}

// BenchmarkRowDots: 2·10⁶ random row pairs of a 10⁷ × 32 float32 matrix
// (a 10⁷-node run's τ sample against its embeddings; 1.3 GB): as the
// scorers asked for them before the tape, one RowDot call at a time, and
// in bulk by rowDots.
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
	b.Run("rowDots", func(b *testing.B) {
		for it := 0; it < b.N; it++ {
			rowDots(z, d, I, J, out)
		}
	})
}

// TestEvalPairCount: the memory plan's count of an evaluation's pairs
// (evalPairCount) bounds what the first evaluation records on the
// sampled path, and closely (the validation sample's triples are at most,
// not exactly, one per two of its pairs).
func TestEvalPairCount(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "grid:60x60", Both, map[string]bool{}
	cfg.TauPairs, cfg.Distances = 20000, DistSampled // well below the graph's pairs: the τ sample holds as many as asked
	rc, ds, p := prepared(t, cfg)
	if p.Exact() {
		t.Fatal("the test wants the sampled path")
	}
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.Evaluate(); err != nil {
		t.Fatal(err)
	}
	recorded, bound := int64(len(c.tape.i)), evalPairCount(rc, int64(ds.NumEdges()))
	t.Logf("recorded %d pairs; the plan counts %d", recorded, bound)
	if recorded > bound || float64(recorded) < 0.97*float64(bound) {
		t.Fatalf("the first evaluation recorded %d pairs; the memory plan counts %d", recorded, bound)
	}
}
