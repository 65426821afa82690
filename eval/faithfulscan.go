package eval

import (
	"math"
	"sort"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// The scan behind FaithfulnessOf and FaithfulnessRows: the embeddings
// stream by a block of rows at a time, each query keeps its own tallies,
// and the tallies are merged in query order.

// faithBlock is how many rows FaithfulnessRows reads at a time.
const faithBlock = 4096

// minParallelFaith is the queries × rows × width below which a block's
// scans stay on one goroutine (a variable: tests change it).
var minParallelFaith = 1 << 20

// queryScan is one query's tallies as the rows stream by: the hop
// histogram, the top k by cosine, and its sampled pairs' ratios and
// cosines by distance, in node order.
type queryScan struct {
	qi, n, stride int
	row           []float64
	hist          map[int]int
	top           topK
	ratios        []float64
	byD           map[int][]float64
	dOrder        []int // byD's distances in first-seen order
}

// FaithfulnessRows is FaithfulnessOf of embeddings read a block of rows at
// a time: rows(lo, hi, buf) returns rows [lo, hi) of width d (in buf,
// of room (hi−lo)·d, or its own memory). Every query sees the nodes of its
// graph in order, as FaithfulnessOf's loop did, and the tallies are merged
// in query order: the same numbers, bit for bit, with the embeddings read
// once for all the queries (from a spill file, say) instead of held.
func FaithfulnessRows[T engine.Float](rows func(lo, hi int, buf []T) []T, d int, u *data.Union, queries []Query, k int) Faithfulness {
	return faithfulnessBlocks(rows, faithBlock, d, u, queries, k)
}

// faithfulnessBlocks is FaithfulnessRows reading block rows at a time.
func faithfulnessBlocks[T engine.Float](rows func(lo, hi int, buf []T) []T, block, d int, u *data.Union, queries []Query, k int) Faithfulness {
	f := Faithfulness{K: k, Queries: len(queries)}
	var prec mean
	var ratios []float64
	byD := map[int][]float64{}
	scans := make([]*queryScan, len(queries))
	buf := make([]T, block*d)
	for x, q := range queries {
		n := u.Graphs[q.Graph].N
		if n-1 < k {
			continue
		}
		qi := u.Global(q.Graph, q.Node)
		// Distortion and buckets from at most maxPairsPerQuery evenly spaced
		// nodes (all of them in graphs up to that size).
		sc := &queryScan{qi: qi, n: n, stride: max(1, (n+maxPairsPerQuery-1)/maxPairsPerQuery),
			row: make([]float64, 0, d), hist: map[int]int{}, top: make(topK, 0, k), byD: map[int][]float64{}}
		for _, v := range rows(qi, qi+1, buf[:d]) {
			sc.row = append(sc.row, float64(v))
		}
		scans[x] = sc
	}
	spilled := false // a spilled query reads its hops from a file: those stay on one goroutine
	for _, q := range queries {
		spilled = spilled || q.spill != nil
	}
	var hopBufs [evalChunks][]uint16
	for lo := 0; lo < u.N; lo += block {
		hi := min(lo+block, u.N)
		var z []T
		span := func(x int) (off, a, b int) { // query x's nodes in the block: global rows [a, b)
			sc, q := scans[x], queries[x]
			if sc == nil {
				return 0, 0, 0
			}
			off = u.Offsets[q.Graph]
			return off, max(lo, off), min(hi, off+sc.n)
		}
		for x := range queries {
			if _, a, b := span(x); a < b {
				z = rows(lo, hi, buf)
				break
			}
		}
		if z == nil {
			continue
		}
		scan := func(x int, hops []uint16) {
			off, a, b := span(x)
			if a >= b {
				return
			}
			sc, q := scans[x], queries[x]
			qh := q.Hops(a-off, b-off, hops)
			for r := a; r < b; r++ {
				j := r - off
				if j == q.Node {
					continue
				}
				h := int(qh[r-a]) // Unreachable sorts last
				sc.hist[h]++
				c := dotWide(sc.row, z[(r-lo)*d:(r-lo+1)*d])
				sc.top.offer(c, j, k)
				if j%sc.stride != 0 {
					continue
				}
				dd := h
				if qh[r-a] == data.Unreachable {
					dd = 0
				} else {
					delta := math.Acos(math.Max(-1, math.Min(1, c))) / math.Pi
					sc.ratios = append(sc.ratios, math.Max(delta, minAngle)/float64(h))
				}
				if _, ok := sc.byD[dd]; !ok {
					sc.dOrder = append(sc.dOrder, dd)
				}
				sc.byD[dd] = append(sc.byD[dd], c)
			}
		}
		// Each query's tallies are its own, filled over the block's rows in
		// order: the queries may go concurrently (each chunk of them on one
		// goroutine with its own hop buffer) and change nothing.
		if spilled || len(queries)*(hi-lo)*d < minParallelFaith {
			if hopBufs[0] == nil {
				hopBufs[0] = make([]uint16, block)
			}
			for x := range queries {
				scan(x, hopBufs[0])
			}
			continue
		}
		for c := range hopBufs {
			if hopBufs[c] == nil {
				hopBufs[c] = make([]uint16, block)
			}
		}
		inChunks(func(c int) {
			for x := len(queries) * c / evalChunks; x < len(queries)*(c+1)/evalChunks; x++ {
				scan(x, hopBufs[c])
			}
		})
	}
	for x, q := range queries {
		sc := scans[x]
		if sc == nil {
			continue
		}
		ratios = append(ratios, sc.ratios...)
		for _, dd := range sc.dOrder {
			byD[dd] = append(byD[dd], sc.byD[dd]...)
		}
		hist, top := sc.hist, sc.top
		// The ball's edge: the K-th smallest hop distance, a nodes strictly
		// closer, t at it.
		var hs []int
		for h := range hist {
			hs = append(hs, h)
		}
		sort.Ints(hs)
		dk, a, t, seen := 0, 0, 0, 0
		for _, h := range hs {
			if seen+hist[h] >= k {
				dk, a, t = h, seen, hist[h]
				break
			}
			seen += hist[h]
		}
		var credit float64
		for _, e := range top {
			switch h := int(q.Hop(e.j)); {
			case h < dk:
				credit++
			case h == dk:
				credit += float64(k-a) / float64(t)
			}
		}
		prec.add(credit / float64(k))
	}
	f.PrecisionAtK = prec.value()
	f.DistortionMean, f.DistortionMax = math.NaN(), math.NaN()
	if len(ratios) > 0 {
		s := append([]float64(nil), ratios...)
		sort.Float64s(s)
		c := s[len(s)/2]
		if len(s)%2 == 0 {
			c = (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
		var logs, worst float64
		for _, r := range ratios {
			v := math.Max(r/c, c/r)
			logs += math.Log(v)
			worst = math.Max(worst, v)
		}
		f.DistortionMean, f.DistortionMax = math.Exp(logs/float64(len(ratios))), worst
	}
	var ds []int
	for dd := range byD {
		ds = append(ds, dd)
	}
	sort.Ints(ds)
	var ts TauScratch
	for i, dd := range ds {
		cs := byD[dd]
		b := Bucket{D: dd, Pairs: len(cs), TauNext: math.NaN()}
		for _, c := range cs {
			b.MeanCos += c
		}
		b.MeanCos /= float64(len(cs))
		sorted := append([]float64(nil), cs...)
		sort.Float64s(sorted)
		for qi, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
			b.Quantiles[qi] = sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
		}
		if dd > 0 && i+1 < len(ds) && ds[i+1] == dd+1 {
			next := byD[dd+1]
			x := make([]uint16, 0, len(cs)+len(next))
			y := make([]float64, 0, len(cs)+len(next))
			for _, c := range cs {
				x, y = append(x, uint16(dd)), append(y, -c)
			}
			for _, c := range next {
				x, y = append(x, uint16(dd+1)), append(y, -c)
			}
			b.TauNext = ts.KendallTauBInts(x, y)
		}
		f.Buckets = append(f.Buckets, b)
	}
	return f
}

// dotWide is engine.Dot64 of a row already widened to float64 (a) and a
// row b: the same products, summed in the same order.
func dotWide[T engine.Float](a []float64, b []T) float64 {
	var s float64
	for x := range a {
		s += a[x] * float64(b[x])
	}
	return s
}
