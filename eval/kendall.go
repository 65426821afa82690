package eval

import (
	"fmt"
	"math"
	"sort"
)

// KendallTauB returns Kendall's τ-b of x and y with ties adjusted:
// (C − D)/√((n0 − n1)(n0 − n2)), with n1 (n2) the pairs tied in x (y). It is
// Knight's O(P log P) algorithm: sort by (x, y), count ties, then count the
// discordant pairs as the swaps of a merge sort on y. It returns NaN when x or
// y is constant (τ is undefined) or holds a NaN, as scipy does.
func KendallTauB(x, y []float64) float64 {
	n := len(x)
	if n != len(y) {
		panic(fmt.Sprintf("eval: KendallTauB: len(x) = %d, len(y) = %d", n, len(y)))
	}
	if n < 2 || hasNaN(x) || hasNaN(y) {
		return math.NaN()
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		ia, ib := idx[a], idx[b]
		if x[ia] != x[ib] {
			return x[ia] < x[ib]
		}
		return y[ia] < y[ib]
	})
	ys := make([]float64, n)
	for i, k := range idx {
		ys[i] = y[k]
	}
	// Ties in x (n1) and joint ties in (x, y) (n3).
	var n1, n3 int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && x[idx[j]] == x[idx[i]] {
			j++
		}
		n1 += int64(j-i) * int64(j-i-1) / 2
		for a := i; a < j; {
			b := a + 1
			for b < j && ys[b] == ys[a] {
				b++
			}
			n3 += int64(b-a) * int64(b-a-1) / 2
			a = b
		}
		i = j
	}
	swaps := mergeCount(ys, make([]float64, n))
	// Ties in y (n2), ys is now sorted.
	var n2 int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && ys[j] == ys[i] {
			j++
		}
		n2 += int64(j-i) * int64(j-i-1) / 2
		i = j
	}
	n0 := int64(n) * int64(n-1) / 2
	if n0 == n1 || n0 == n2 {
		return math.NaN()
	}
	num := float64(n0-n1-n2+n3) - 2*float64(swaps)
	return num / math.Sqrt(float64(n0-n1)*float64(n0-n2))
}

// mergeCount sorts a ascending and returns the number of strictly inverted
// pairs (i < j, a[i] > a[j]).
func mergeCount(a, buf []float64) int64 {
	n := len(a)
	if n < 2 {
		return 0
	}
	if n <= 16 {
		var s int64
		for i := 1; i < n; i++ {
			v := a[i]
			j := i
			for j > 0 && a[j-1] > v {
				a[j] = a[j-1]
				j--
			}
			s += int64(i - j)
			a[j] = v
		}
		return s
	}
	m := n / 2
	s := mergeCount(a[:m], buf[:m]) + mergeCount(a[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < n {
		if a[j] < a[i] {
			buf[k] = a[j]
			s += int64(m - i)
			j++
		} else {
			buf[k] = a[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], a[i:m])
	copy(buf[k:], a[j:n])
	copy(a, buf[:n])
	return s
}
