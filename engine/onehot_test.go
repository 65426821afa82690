package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOneHotRows: the in-place one-hot matrix equals NewCSR of its
// triples (shape, structure, values, content hash), and an entry outside
// the columns panics as NewCSR's does.
func TestOneHotRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, cols := 50, 70
	colOf := make([]int, n)
	var es []Entry
	for r := range colOf {
		colOf[r] = rng.IntN(cols)
		es = append(es, Entry{Row: r, Col: colOf[r], Val: 1})
	}
	rng.Shuffle(len(es), func(a, b int) { es[a], es[b] = es[b], es[a] })
	want, got := NewCSR(n, cols, es), OneHotRows(cols, slices.Clone(colOf))
	if got.Rows != want.Rows || got.Cols != want.Cols || !slices.Equal(got.RowPtr, want.RowPtr) ||
		!slices.Equal(got.ColIdx, want.ColIdx) || !slices.Equal(got.Val, want.Val) || got.ID() != want.ID() {
		t.Fatalf("one-hot %+v\nNewCSR %+v", got, want)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "outside 2×3") {
			t.Fatalf("panic %v, want the entry outside the matrix", r)
		}
	}()
	OneHotRows(3, []int{0, 3})
}
