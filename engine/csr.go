package engine

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"sync"
)

// CSR is a sparse matrix in compressed sparse row form, immutable unless
// made by NewMutableCSR (mini-batch inputs, see Assign).
// Row r holds the entries ColIdx[RowPtr[r]:RowPtr[r+1]] with values
// Val[RowPtr[r]:RowPtr[r+1]], columns sorted ascending within a row.
//
// A CSR is built once per graph and shared by every op that uses it; its
// transpose and float32 values are computed lazily and cached.
type CSR struct {
	Rows, Cols int
	RowPtr     []int
	ColIdx     []int
	Val        []float64

	idOnce sync.Once
	id     uint64

	tOnce sync.Once
	t     *CSR
	perm  []int // perm[k] = index in the original of the k-th transposed entry

	v32Once sync.Once
	v32     []float32

	mutable   bool // NewMutableCSR: content replaced by Assign
	symmetric bool // mutable and symmetric: its transpose shares its arrays (no TransposePerm)
}

// Entry is one (row, col, value) triple used to build a CSR.
type Entry struct {
	Row, Col int
	Val      float64
}

// NewCSR builds a rows×cols CSR from triples. Duplicate (row, col) entries are
// summed. It panics if an index is out of range.
func NewCSR(rows, cols int, entries []Entry) *CSR {
	es := make([]Entry, len(entries))
	copy(es, entries)
	for _, e := range es {
		if e.Row < 0 || e.Row >= rows || e.Col < 0 || e.Col >= cols {
			panic(fmt.Sprintf("engine: CSR entry (%d,%d) outside %d×%d", e.Row, e.Col, rows, cols))
		}
	}
	sort.Slice(es, func(a, b int) bool {
		if es[a].Row != es[b].Row {
			return es[a].Row < es[b].Row
		}
		return es[a].Col < es[b].Col
	})
	m := &CSR{Rows: rows, Cols: cols, RowPtr: make([]int, rows+1)}
	for k, e := range es {
		if k > 0 && es[k-1].Row == e.Row && es[k-1].Col == e.Col {
			m.Val[len(m.Val)-1] += e.Val
			continue
		}
		m.ColIdx = append(m.ColIdx, e.Col)
		m.Val = append(m.Val, e.Val)
		m.RowPtr[e.Row+1]++
	}
	for r := 0; r < rows; r++ {
		m.RowPtr[r+1] += m.RowPtr[r]
	}
	return m
}

// OneHotRows is NewCSR of one entry 1 a row, row r's at column colOf[r]
// (colOf becomes the matrix's ColIdx), built in place: a one-hot identity
// of 10⁸ nodes through NewCSR would sort 2.4 GB of triples and copy them
// (a 4.7 GB spike). It panics if a column is out of range.
func OneHotRows(cols int, colOf []int) *CSR {
	n := len(colOf)
	m := &CSR{Rows: n, Cols: cols, RowPtr: make([]int, n+1), ColIdx: colOf, Val: make([]float64, n)}
	for r, c := range colOf {
		if c < 0 || c >= cols {
			panic(fmt.Sprintf("engine: CSR entry (%d,%d) outside %d×%d", r, c, n, cols))
		}
		m.RowPtr[r+1], m.Val[r] = r+1, 1
	}
	return m
}

// NNZ is the number of stored entries.
func (m *CSR) NNZ() int { return len(m.ColIdx) }

// ID is a content hash of the matrix (shape, structure and values). Two
// matrices with equal content have equal IDs, so ops that embed a CSR may be
// merged by gorgonia exactly when they compute the same thing.
func (m *CSR) ID() uint64 {
	m.idOnce.Do(func() {
		h := fnv.New64a()
		var b [8]byte
		put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
		put(uint64(m.Rows))
		put(uint64(m.Cols))
		for _, v := range m.RowPtr {
			put(uint64(v))
		}
		for _, v := range m.ColIdx {
			put(uint64(v))
		}
		for _, v := range m.Val {
			put(math.Float64bits(v))
		}
		m.id = h.Sum64()
	})
	return m.id
}

// T returns the transpose, computed once and cached. TransposePerm gives the
// map from transposed entry positions back to this matrix's entries.
func (m *CSR) T() *CSR {
	m.tOnce.Do(func() {
		if m.symmetric {
			t := NewMutableCSR(m.Cols, m.Rows)
			t.RowPtr, t.ColIdx, t.Val, t.v32 = m.RowPtr, m.ColIdx, m.Val, m.Val32()
			m.t = t
			return
		}
		t, perm := transposeOf(m)
		if m.mutable {
			mt := NewMutableCSR(t.Rows, t.Cols)
			mt.assign(t.RowPtr, t.ColIdx, t.Val)
			t = mt
		}
		m.t, m.perm = t, perm
	})
	return m.t
}

// transposeOf computes m's transpose and the map from its entries back to
// m's.
func transposeOf(m *CSR) (*CSR, []int) {
	t := &CSR{Rows: m.Cols, Cols: m.Rows, RowPtr: make([]int, m.Cols+1),
		ColIdx: make([]int, m.NNZ()), Val: make([]float64, m.NNZ())}
	for _, c := range m.ColIdx {
		t.RowPtr[c+1]++
	}
	for r := 0; r < m.Cols; r++ {
		t.RowPtr[r+1] += t.RowPtr[r]
	}
	next := make([]int, m.Cols)
	copy(next, t.RowPtr[:m.Cols])
	perm := make([]int, m.NNZ())
	for r := 0; r < m.Rows; r++ {
		for k := m.RowPtr[r]; k < m.RowPtr[r+1]; k++ {
			c := m.ColIdx[k]
			p := next[c]
			next[c]++
			t.ColIdx[p] = r
			t.Val[p] = m.Val[k]
			perm[p] = k
		}
	}
	return t, perm
}

// TransposePerm returns perm with T().Val[k] == Val[perm[k]]. A symmetric
// mutable matrix (a batch adjacency) has none: it panics there.
func (m *CSR) TransposePerm() []int {
	m.T()
	if m.symmetric {
		panic("engine: TransposePerm of a symmetric batch matrix")
	}
	return m.perm
}

// Val32 returns the values as float32, cached.
func (m *CSR) Val32() []float32 {
	m.v32Once.Do(func() {
		m.v32 = make([]float32, len(m.Val))
		for i, v := range m.Val {
			m.v32[i] = float32(v)
		}
	})
	return m.v32
}

// Dense returns the matrix as a row-major dense slice (for tests and small
// references).
func (m *CSR) Dense() []float64 {
	d := make([]float64, m.Rows*m.Cols)
	for r := 0; r < m.Rows; r++ {
		for k := m.RowPtr[r]; k < m.RowPtr[r+1]; k++ {
			d[r*m.Cols+m.ColIdx[k]] += m.Val[k]
		}
	}
	return d
}

// RowOf returns, for each stored entry, its row index.
func (m *CSR) RowOf() []int {
	rows := make([]int, m.NNZ())
	for r := 0; r < m.Rows; r++ {
		for k := m.RowPtr[r]; k < m.RowPtr[r+1]; k++ {
			rows[k] = r
		}
	}
	return rows
}
