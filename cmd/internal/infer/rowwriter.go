package infer

import (
	"slices"

	"github.com/ignn/ignn/data"
)

// rowWriter gathers rows bound for a spill file and writes them sorted,
// each run of consecutive rows in one write: the inference hands rows over
// in its breadth-first order, where a chunk holds runs of neighbouring
// node numbers (a grid's diagonals), not one write a row.
type rowWriter struct {
	s    *data.Spill[float32]
	d    int
	v    []int32   // the gathered rows' numbers
	rows []float32 // their values, in the order gathered
	run  []float32 // a run's values, in row order
	ord  []int32
}

// rowWriterRows is how many rows a rowWriter gathers before it writes.
const rowWriterRows = 1 << 16

// next makes room for row v's values and returns it.
func (w *rowWriter) next(v int) []float32 {
	w.v = append(w.v, int32(v))
	w.rows = slices.Grow(w.rows, w.d)[:len(w.rows)+w.d]
	return w.rows[len(w.rows)-w.d:]
}

func (w *rowWriter) full() bool { return len(w.v) >= rowWriterRows }

// flush writes the gathered rows, a run of consecutive row numbers at a
// time, and forgets them.
func (w *rowWriter) flush() error {
	w.ord = w.ord[:0]
	for k := range w.v {
		w.ord = append(w.ord, int32(k))
	}
	slices.SortFunc(w.ord, func(a, b int32) int { return int(w.v[a]) - int(w.v[b]) })
	d := w.d
	for lo := 0; lo < len(w.ord); {
		hi := lo + 1
		for hi < len(w.ord) && w.v[w.ord[hi]] == w.v[w.ord[hi-1]]+1 {
			hi++
		}
		w.run = w.run[:0]
		for _, k := range w.ord[lo:hi] {
			w.run = append(w.run, w.rows[int(k)*d:(int(k)+1)*d]...)
		}
		if err := w.s.SetRows(int(w.v[w.ord[lo]]), w.run); err != nil {
			return err
		}
		lo = hi
	}
	w.v, w.rows = w.v[:0], w.rows[:0]
	return nil
}
