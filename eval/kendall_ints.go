package eval

import (
	"fmt"
	"math"
	"sync"
)

// KendallTauBInts is KendallTauB for small non-negative integer x (hop
// distances) and arbitrary y: the same number, bit for bit, as
// KendallTauB(float64(x), y), computed without a comparison sort. y's IEEE
// bits are made order-preserving and split at a pivot into a low and a high
// half, each radix-sorted and swept on its own core: in increasing y, a
// count of earlier elements per x value gives each element's concordant
// (smaller x) and discordant (larger x) partners, ties in y a group at a
// time. The pairs across the halves need only the halves' x histograms.
// All counts are exact integers, so the result does not depend on
// scheduling. Cost O(P·(4 + X)) time for P pairs and largest x X (a
// Fenwick tree takes over above X = 64), 20·P bytes of scratch. NaN when
// P < 2, x or y is constant, or y holds a NaN.
func KendallTauBInts(x []uint16, y []float64) float64 {
	var s TauScratch
	return s.KendallTauBInts(x, y)
}

// TauScratch holds KendallTauBInts's buffers for reuse across calls (fresh
// 10⁷-element buffers cost more in page faults than the sort itself). The
// zero value is ready; it is not safe for concurrent use.
type TauScratch struct {
	k1, k2 []uint64
	v1, v2 []uint16
}

func (s *TauScratch) grow(n int) {
	if cap(s.k1) < n {
		s.k1, s.k2 = make([]uint64, n), make([]uint64, n)
		s.v1, s.v2 = make([]uint16, n), make([]uint16, n)
	}
	s.k1, s.k2, s.v1, s.v2 = s.k1[:n], s.k2[:n], s.v1[:n], s.v2[:n]
}

// KendallTauBInts is the package function with s's buffers.
func (s *TauScratch) KendallTauBInts(x []uint16, y []float64) float64 {
	n := len(x)
	if n != len(y) {
		panic(fmt.Sprintf("eval: KendallTauBInts: len(x) = %d, len(y) = %d", n, len(y)))
	}
	if n < 2 || hasNaN(y) {
		return math.NaN()
	}
	s.grow(n)
	maxX := 0
	var top [1 << 16]int
	for i, v := range y {
		top[sortableBits(v)>>48]++
		maxX = max(maxX, int(x[i]))
	}
	// Pivot: the first top-16-bit bucket at which half the keys are below.
	pivot, below := uint64(0), 0
	for b, c := range top {
		if below+c > n/2 {
			pivot = uint64(b)
			if below == 0 { // the lowest bucket holds the median: put it low
				pivot++
				below += c
			}
			break
		}
		below += c
	}
	k2, v2, keys, vals := s.k2, s.v2, s.k1, s.v1
	lo, hi := 0, below
	for i, v := range y {
		k := sortableBits(v)
		if k>>48 < pivot {
			k2[lo], v2[lo] = k, x[i]
			lo++
		} else {
			k2[hi], v2[hi] = k, x[i]
			hi++
		}
	}
	var parts [2]sweepResult
	var wg sync.WaitGroup
	for h, r := range [2][2]int{{0, below}, {below, n}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ks, vs := radixSort(k2[r[0]:r[1]], v2[r[0]:r[1]], keys[r[0]:r[1]], vals[r[0]:r[1]])
			parts[h] = sweep(ks, vs, maxX)
		}()
	}
	wg.Wait()
	a, b := parts[0], parts[1]
	cd, n2 := a.cd+b.cd, a.n2+b.n2
	var less int64 // low-half elements with x < d
	for d := 0; d <= maxX; d++ {
		greater := int64(below) - less - a.hist[d]
		cd += b.hist[d] * (less - greater)
		less += a.hist[d]
	}
	var n1 int64
	for d := 0; d <= maxX; d++ {
		c := a.hist[d] + b.hist[d]
		n1 += c * (c - 1) / 2
	}
	n0 := int64(n) * int64(n-1) / 2
	if n0 == n1 || n0 == n2 {
		return math.NaN()
	}
	return float64(cd) / math.Sqrt(float64(n0-n1)*float64(n0-n2))
}

// sweepResult is one sorted run's concordant-minus-discordant count, its
// pairs tied in y and its histogram of x.
type sweepResult struct {
	cd, n2 int64
	hist   []int64
}

// sweep walks keys ascending (vals their x) and counts C − D and the ties
// in y within the run.
func sweep(keys []uint64, vals []uint16, maxX int) sweepResult {
	r := sweepResult{hist: make([]int64, maxX+1)}
	small := maxX <= 64
	cum := make([]int64, maxX+2)  // small: cum[v] = inserted with x < v; else a Fenwick tree on x+1
	prefix := func(v int) int64 { // inserted with x < v
		if small {
			return cum[v]
		}
		var s int64
		for i := v; i > 0; i -= i & -i {
			s += cum[i]
		}
		return s
	}
	var inserted int64
	n := len(keys)
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j] == keys[i] {
			j++
		}
		for _, d := range vals[i:j] {
			r.cd += prefix(int(d)) - (inserted - prefix(int(d)+1))
		}
		for _, d := range vals[i:j] {
			if small {
				for v := int(d) + 1; v < len(cum); v++ {
					cum[v]++
				}
			} else {
				for p := int(d) + 1; p < len(cum); p += p & -p {
					cum[p]++
				}
			}
			r.hist[d]++
		}
		g := int64(j - i)
		inserted += g
		r.n2 += g * (g - 1) / 2
		i = j
	}
	return r
}

// sortableBits maps a float64 to a uint64 whose unsigned order is the
// float order (−0 and +0 map to the same key).
func sortableBits(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// radixSort sorts keys ascending with their payloads (LSD, 16-bit digits,
// skipping digits on which every key agrees), using k2/v2 as scratch of the
// same length. It returns whichever pair of slices holds the result.
func radixSort(keys []uint64, vals []uint16, k2 []uint64, v2 []uint16) ([]uint64, []uint16) {
	n := len(keys)
	if n == 0 {
		return keys, vals
	}
	count := make([]int, 1<<16)
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count)
		for _, k := range keys {
			count[(k>>shift)&0xffff]++
		}
		if count[(keys[0]>>shift)&0xffff] == n {
			continue // every key has this digit
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for i, k := range keys {
			d := (k >> shift) & 0xffff
			k2[count[d]], v2[count[d]] = k, vals[i]
			count[d]++
		}
		keys, k2 = k2, keys
		vals, v2 = v2, vals
	}
	return keys, vals
}
