package features

import (
	"fmt"
	"math"
	"sort"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Options selects the input of a run.
type Options struct {
	Hash    bool // concatenate hash vectors
	HashDim int  // n, components per node
	Float32 bool // the run computes in float32: attributes must fit its range, and the dense part is stored in float32 (Dense32)
	// Encodings, when set, holds one n_g × EncodingDim encoding per graph
	// (see Encode), concatenated last.
	Encodings   []*Encoding
	EncodingDim int
	// View, with Float32 and no hash, makes the dense part a view
	// (engine.Features.View) of the graphs' attributes and Encodings
	// instead of storing it: each row is computed when it is loaded, to the
	// values Build would store. Worth it when the encodings are smaller
	// than the float32 rows (landmark hop counts: 2 bytes an entry against
	// 4) and the run only ever reads rows (mini-batches, chunked inference).
	View bool
}

// Build returns the input features of the disjoint union of ds's graphs, in
// graph order: [identity | attributes | hash | encoding]. Identity datasets contribute a
// sparse permuted one-hot part; attribute datasets a dense part; the hash
// vector of node b is HashVectors(b's ID) and is concatenated as dense
// columns. It errors when a hash is requested with HashDim < 1 or when the
// graphs' attribute widths differ.
func Build(ds *data.Dataset, opt Options) (*engine.Features, error) {
	u := ds.Union()
	n := u.N
	f := &engine.Features{N: n}
	if ds.Identity {
		colOf := make([]int, n)
		for gi, g := range ds.Graphs {
			for i := 0; i < g.N; i++ {
				colOf[u.Global(gi, i)] = ds.Perm[gi][i]
			}
		}
		f.Sparse = engine.OneHotRows(ds.FeatureDim(), colOf)
	}
	xdim := 0
	if !ds.Identity && len(ds.Graphs) > 0 {
		xdim = ds.Graphs[0].XDim
		for _, g := range ds.Graphs {
			if g.XDim != xdim {
				return nil, fmt.Errorf("features: %s: graphs have feature widths %d and %d", ds.Name, xdim, g.XDim)
			}
		}
	}
	hd := 0
	if opt.Hash {
		if opt.HashDim < 1 {
			return nil, fmt.Errorf("features: hash dimension must be ≥ 1, got %d", opt.HashDim)
		}
		hd = opt.HashDim
	}
	ed := 0
	if opt.Encodings != nil {
		if len(opt.Encodings) != len(ds.Graphs) {
			return nil, fmt.Errorf("features: %d encodings for %d graphs", len(opt.Encodings), len(ds.Graphs))
		}
		ed = opt.EncodingDim
	}
	f.DenseDim = xdim + hd + ed
	if f.DenseDim == 0 {
		return f, nil
	}
	if opt.Float32 {
		for _, g := range ds.Graphs {
			if err := g.CheckFloat32(); err != nil {
				return nil, fmt.Errorf("features: %w; use --dtype float64 or rescale the features", err)
			}
		}
	}
	if opt.View && opt.Float32 && hd == 0 {
		viewRows(f, ds, u.Offsets, xdim, opt)
		return f, nil
	}
	if opt.Float32 { // stored as the float32 graph reads it (engine.Features.Dense32)
		f.Dense32 = make([]float32, n*f.DenseDim)
	} else {
		f.Dense = make([]float64, n*f.DenseDim)
	}
	dst := make([]float64, f.DenseDim)
	for gi, g := range ds.Graphs {
		var h []float64
		if hd > 0 {
			h = HashVectors(g.NodeIDs(), hd)
		}
		for i := 0; i < g.N; i++ {
			copy(dst, g.XRow(i))
			if hd > 0 {
				copy(dst[xdim:], h[i*hd:(i+1)*hd])
			}
			if ed > 0 {
				opt.Encodings[gi].Row(i, dst[xdim+hd:])
			}
			f.SetRow(u.Global(gi, i), dst)
		}
	}
	return f, nil
}

// viewRows makes f's dense part a view of the graphs' attributes and
// encodings: row r is [attributes | encoding] of its graph's node, each
// value rounded to float32 as SetRow stores it.
func viewRows(f *engine.Features, ds *data.Dataset, offsets []int, xdim int, opt Options) {
	d := f.DenseDim
	f.ViewScratch = d
	f.View = func(r int, dst []float32, row []float64) {
		g := 0
		if len(offsets) > 1 {
			g = sort.SearchInts(offsets, r+1) - 1
		}
		i := r - offsets[g]
		copy(row, ds.Graphs[g].XRow(i))
		if opt.Encodings != nil {
			opt.Encodings[g].Row(i, row[xdim:d])
		}
		for j, v := range row[:d] {
			dst[j] = float32(v)
		}
	}
	if opt.Encodings != nil {
		f.ViewAhead = EncodingAhead(opt.Encodings, offsets)
	}
}

// DefaultHashDim is the paper's rule n = input feature dimension, with 32 for
// featureless or constant-feature graphs (dimension ≤ 1), where n = 1 cannot
// break isomorphisms, and 64 for inputs wider than MaxRuleHashDim (one-hot
// identities of large graphs, where n = N would make the dense hash block
// N², e.g. 4 TB at 10⁶ nodes).
func DefaultHashDim(ds *data.Dataset) int {
	switch d := ds.FeatureDim(); {
	case d > MaxRuleHashDim:
		return 64
	case d > 1:
		return d
	}
	return 32
}

// MaxRuleHashDim is the widest input the paper's rule n = input dimension
// is applied to (Communities' 400-dim identity is below it).
const MaxRuleHashDim = 1024

// Standardise shifts and scales each of the k columns of the row-major
// n × k matrix v in place to mean 0 and (population) standard deviation 1;
// a constant column becomes 0. Sums in row order, float64: deterministic.
// O(n·k), in row-major passes (ColumnStats).
func Standardise(v []float64, n, k int) {
	st := ColumnStats(func(r int, dst []float64) { copy(dst, v[r*k:(r+1)*k]) }, n, k)
	for r := 0; r < n; r++ {
		st.Apply(v[r*k : (r+1)*k])
	}
}

// Stats are the per-column mean and inverse standard deviation of an
// n × k matrix (ColumnStats); Apply standardises one row with them.
type Stats struct {
	Mean, Inv []float64
	Zero      []bool // a constant column (or one of zero spread): its values become 0
}

// RowReader writes row r of an n × k matrix into dst (length k), exactly
// (float64).
type RowReader func(r int, dst []float64)

// ColumnStats computes each column's mean and inverse population standard
// deviation from the rows read in order: two passes, each summing a
// column in row order (the same sums, in the same order, as a column-wise
// loop, read row by row so that no N × k copy is needed). O(n·k).
func ColumnStats(read RowReader, n, k int) Stats {
	st := Stats{Mean: make([]float64, k), Inv: make([]float64, k), Zero: make([]bool, k)}
	if n == 0 {
		return st
	}
	row, first := make([]float64, k), make([]float64, k)
	read(0, first)
	ss := make([]float64, k)
	for r := 0; r < n; r++ {
		read(r, row)
		for c, x := range row {
			st.Mean[c] += x
			st.Zero[c] = st.Zero[c] || x != first[c] // "not constant" for now
		}
	}
	for c := range st.Mean {
		st.Mean[c] /= float64(n)
	}
	for r := 0; r < n; r++ {
		read(r, row)
		for c, x := range row {
			d := x - st.Mean[c]
			ss[c] += d * d
		}
	}
	for c := range st.Zero {
		st.Zero[c] = !st.Zero[c] || ss[c] == 0 // exactly 0, not the rounding of the mean blown up to std 1
		if !st.Zero[c] {
			st.Inv[c] = 1 / math.Sqrt(ss[c]/float64(n))
		}
	}
	return st
}

// Apply standardises one row in place: (x − mean)·inv, 0 in zero columns.
func (st Stats) Apply(row []float64) {
	for c := range row {
		if st.Zero[c] {
			row[c] = 0
			continue
		}
		row[c] -= st.Mean[c]
		row[c] *= st.Inv[c]
	}
}
