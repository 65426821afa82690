package features

import (
	"sync"
	"unsafe"

	"github.com/ignn/ignn/data"
)

// Encoding is one graph's positional columns, N rows × K: either their
// values (Laplacian eigenvectors, walk probabilities) or, for landmarks,
// the hop counts they are computed from (2 bytes per entry instead of 8:
// the landmark value 1/(1+d) is made exactly when a row is read).
type Encoding struct {
	N, K   int
	Values []float64 // row-major N × K, or nil
	hops   []uint16  // landmarks: row-major N × m hop counts (m ≤ K; columns m… are 0)
	m      int
	spill  *data.Spill[uint16] // or those hop counts in a file (LandmarkSpilled), hops nil
	blocks sync.Pool           // *spillBlock: the last block of rows a reader read from spill
}

// spillBlockRows is how many consecutive rows a spilled encoding reads at
// once (4 KB of 64 hop counts): rows read in order (inference, the skip
// block's statistics) cost one pread per block, not one per row.
const spillBlockRows = 16

// spillBlock is rows [first, first+spillBlockRows) of a spilled encoding.
type spillBlock struct {
	first int
	v     []uint16
}

// Hops reports whether e holds landmark hop counts (2 bytes an entry)
// rather than values.
func (e *Encoding) Hops() bool { return e.Values == nil }

// Row writes row i's K values into dst (float64, exact).
func (e *Encoding) Row(i int, dst []float64) {
	if e.Values != nil {
		copy(dst[:e.K], e.Values[i*e.K:(i+1)*e.K])
		return
	}
	inv := landmarkValue()
	if e.spill != nil {
		b, _ := e.blocks.Get().(*spillBlock)
		if b == nil {
			b = &spillBlock{first: -1, v: make([]uint16, spillBlockRows*e.m)}
		}
		if first := i - i%spillBlockRows; b.first != first {
			e.spill.Block(first, min(first+spillBlockRows, e.N), b.v)
			b.first = first
		}
		for j, d := range b.v[(i-b.first)*e.m : (i-b.first+1)*e.m] {
			dst[j] = inv[d]
		}
		e.blocks.Put(b)
	} else {
		for j, d := range e.hops[i*e.m : (i+1)*e.m] {
			dst[j] = inv[d]
		}
	}
	clear(dst[e.m:e.K])
}

// Ahead asks the memory for row i's hop counts (data.PrefetchLines: its
// first and last entries' lines, 128 B at 64 landmarks), for a reader
// about to compute it; values and spilled hop counts (read by pread) get
// no hint. It changes nothing Row returns.
func (e *Encoding) Ahead(i int) {
	if e.hops == nil || e.m == 0 {
		return
	}
	row := e.hops[i*e.m : (i+1)*e.m]
	data.PrefetchLines(unsafe.Pointer(&row[0]), unsafe.Pointer(&row[len(row)-1]))
}

// WillNeed asks for a spilled encoding's whole file in the page cache
// ahead of its reads (data.Spill.WillNeed); held encodings have nothing
// to ask. It reports whether it asked.
func (e *Encoding) WillNeed() bool {
	return e.spill != nil && e.spill.WillNeed()
}

// Spilled reports whether e's hop counts are in a file (LandmarkSpilled).
func (e *Encoding) Spilled() bool { return e.spill != nil }

// Close releases a spilled encoding's file; other encodings have none.
func (e *Encoding) Close() error {
	if e.spill == nil {
		return nil
	}
	return e.spill.Close()
}

// landmarkValue[d] is the landmark value of hop count d, 1/(1+d), and 0
// for data.Unreachable: a row is read by lookups (rows are read at every
// mini-batch step when the input is a view), to the values the division
// gives.
var landmarkValue = sync.OnceValue(func() *[1 << 16]float64 {
	var v [1 << 16]float64
	for d := range v {
		if uint16(d) != data.Unreachable {
			v[d] = 1 / (1 + float64(d))
		}
	}
	return &v
})

// Dense is the whole matrix, row-major (N × K float64: for tests and
// small graphs).
func (e *Encoding) Dense() []float64 {
	if e.Values != nil {
		return e.Values
	}
	v := make([]float64, e.N*e.K)
	for i := range e.N {
		e.Row(i, v[i*e.K:(i+1)*e.K])
	}
	return v
}

// valuesEncoding wraps a row-major n × k matrix.
func valuesEncoding(v []float64, n, k int) *Encoding {
	return &Encoding{N: n, K: k, Values: v}
}
