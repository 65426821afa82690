package features

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Options selects the input of a run.
type Options struct {
	Hash    bool // concatenate hash vectors
	HashDim int  // n, components per node
	Float32 bool // the run computes in float32: attributes must fit its range
	// Encodings, when set, holds one row-major n_g × EncodingDim matrix
	// per graph (a positional encoding, see Encode), concatenated last.
	Encodings   [][]float64
	EncodingDim int
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
		cols := ds.FeatureDim()
		es := make([]engine.Entry, 0, n)
		for gi, g := range ds.Graphs {
			for i := 0; i < g.N; i++ {
				es = append(es, engine.Entry{Row: u.Global(gi, i), Col: ds.Perm[gi][i], Val: 1})
			}
		}
		f.Sparse = engine.NewCSR(n, cols, es)
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
	f.Dense = make([]float64, n*f.DenseDim)
	for gi, g := range ds.Graphs {
		var h []float64
		if hd > 0 {
			h = HashVectors(g.IDs, hd)
		}
		for i := 0; i < g.N; i++ {
			row := u.Global(gi, i)
			dst := f.Dense[row*f.DenseDim : (row+1)*f.DenseDim]
			copy(dst, g.X[i*xdim:(i+1)*xdim])
			if hd > 0 {
				copy(dst[xdim:], h[i*hd:(i+1)*hd])
			}
			if ed > 0 {
				copy(dst[xdim+hd:], opt.Encodings[gi][i*ed:(i+1)*ed])
			}
		}
	}
	return f, nil
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
// O(n·k).
func Standardise(v []float64, n, k int) {
	if n == 0 {
		return
	}
	for c := 0; c < k; c++ {
		var mean float64
		constant := true
		for r := 0; r < n; r++ {
			mean += v[r*k+c]
			constant = constant && v[r*k+c] == v[c]
		}
		mean /= float64(n)
		var ss float64
		for r := 0; r < n; r++ {
			v[r*k+c] -= mean
			ss += v[r*k+c] * v[r*k+c]
		}
		if constant || ss == 0 { // exactly 0, not the rounding of the mean blown up to std 1
			for r := 0; r < n; r++ {
				v[r*k+c] = 0
			}
			continue
		}
		inv := 1 / math.Sqrt(ss/float64(n))
		for r := 0; r < n; r++ {
			v[r*k+c] *= inv
		}
	}
}
