package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// EdgeScores returns, for every stored entry k = (i, j) of a (row i =
// destination, column j = source), the score dst[i] + src[j] (GAT's
// unnormalised attention logit before LeakyReLU). dst and src are N-vectors
// or N×1 matrices (a product h·a, taken as it is: no reshape instruction on
// the tape); the result has a.NNZ() entries in CSR order. Gradients are
// segment sums, shaped as their input: d dst[i] = Σ_{k in row i} g_k,
// d src[j] = Σ_{k: col k = j} g_k. O(nnz).
func EdgeScores(a *CSR, dst, src *G.Node) *G.Node {
	for _, n := range []*G.Node{dst, src} {
		if !scoreShape(n.Shape(), a.Rows) {
			panic(fmt.Sprintf("engine: EdgeScores: input has shape %v, want a vector of %d or a %d×1 matrix", n.Shape(), a.Rows, a.Rows))
		}
	}
	if dst.Dims() != src.Dims() {
		panic(fmt.Sprintf("engine: EdgeScores: inputs have shapes %v and %v, want the same rank", dst.Shape(), src.Shape()))
	}
	return G.Must(G.ApplyOp(&edgeScoreOp{a: a, dims: dst.Dims()}, dst, src))
}

// scoreShape: an n-vector or an n×1 matrix.
func scoreShape(s tensor.Shape, n int) bool {
	return (len(s) == 1 && s[0] == n) || (len(s) == 2 && s[0] == n && s[1] == 1)
}

// edgeScoreOp computes the scores (mode 0), or reduces an edge gradient to
// rows (mode 1, d dst) or to columns (mode 2, d src). dims is the rank of
// the score inputs (1 or 2), which the gradients take.
type edgeScoreOp struct {
	opBase

	a    *CSR
	mode int
	dims int
}

// nodeShape is the shape of a per-node input or gradient.
func (op *edgeScoreOp) nodeShape() []int {
	if op.dims == 2 {
		return []int{op.a.Rows, 1}
	}
	return []int{op.a.Rows}
}

func (op *edgeScoreOp) Arity() int {
	if op.mode == 0 {
		return 2
	}
	return 1
}
func (op *edgeScoreOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.mode == 0 {
		return hm.NewFnType(tt(op.dims, a), tt(op.dims, a), tt(1, a))
	}
	return hm.NewFnType(tt(1, a), tt(op.dims, a))
}
func (op *edgeScoreOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if op.mode == 0 {
		return tensor.Shape{op.a.NNZ()}, nil
	}
	return op.nodeShape(), nil
}
func (op *edgeScoreOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var y []float64
		if op.mode == 0 {
			y = vals[float64](dense(op, in[1]))
		}
		return edgeScore(op, xs, y, x.Dtype()), nil
	case tensor.Float32:
		xs := vals[float32](x)
		var y []float32
		if op.mode == 0 {
			y = vals[float32](dense(op, in[1]))
		}
		return edgeScore(op, xs, y, x.Dtype()), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
}

func edgeScore[T Float](op *edgeScoreOp, x, y []T, dt tensor.Dtype) *tensor.Dense {
	a, mode := op.a, op.mode
	var out *tensor.Dense
	if mode == 0 {
		out = op.outputRaw(dt, a.NNZ()) // every entry written
	} else {
		out = op.output(dt, op.nodeShape()...) // sums: zeroed
	}
	o := vals[T](out)
	for r := 0; r < a.Rows; r++ {
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			switch mode {
			case 0:
				o[k] = x[r] + y[a.ColIdx[k]]
			case 1:
				o[r] += x[k]
			case 2:
				o[a.ColIdx[k]] += x[k]
			}
		}
	}
	return out
}

func (op *edgeScoreOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.EdgeScores{mode=%d dims=%d %d×%d nnz=%d id=%016x}", op.mode, op.dims, op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID())
}
func (op *edgeScoreOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *edgeScoreOp) String() string {
	return fmt.Sprintf("EdgeScores%d[%04x]", op.mode, op.a.ID()&0xffff)
}
func (op *edgeScoreOp) DiffWRT(n int) []bool {
	if op.mode == 0 {
		return []bool{true, true}
	}
	return []bool{false}
}
func (op *edgeScoreOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.mode != 0 {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	dd, err := G.ApplyOp(&edgeScoreOp{a: op.a, mode: 1, dims: op.dims}, grad)
	if err != nil {
		return nil, err
	}
	ds, err := G.ApplyOp(&edgeScoreOp{a: op.a, mode: 2, dims: op.dims}, grad)
	return G.Nodes{dd, ds}, err
}
