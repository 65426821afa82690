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
// unnormalised attention logit before LeakyReLU). dst and src are N-vectors;
// the result has a.NNZ() entries in CSR order. Gradients are segment sums:
// d dst[i] = Σ_{k in row i} g_k, d src[j] = Σ_{k: col k = j} g_k. O(nnz).
func EdgeScores(a *CSR, dst, src *G.Node) *G.Node {
	for _, n := range []*G.Node{dst, src} {
		if n.Shape().TotalSize() != a.Rows || n.Dims() != 1 {
			panic(fmt.Sprintf("engine: EdgeScores: input has shape %v, want a vector of %d", n.Shape(), a.Rows))
		}
	}
	return G.Must(G.ApplyOp(&edgeScoreOp{a: a}, dst, src))
}

// edgeScoreOp computes the scores (mode 0), or reduces an edge gradient to
// rows (mode 1, d dst) or to columns (mode 2, d src).
type edgeScoreOp struct {
	opBase

	a    *CSR
	mode int
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
		return hm.NewFnType(tt(1, a), tt(1, a), tt(1, a))
	}
	return hm.NewFnType(tt(1, a), tt(1, a))
}
func (op *edgeScoreOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if op.mode == 0 {
		return tensor.Shape{op.a.NNZ()}, nil
	}
	return tensor.Shape{op.a.Rows}, nil
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
		return edgeScore(op.a, op.mode, xs, y, x.Dtype()), nil
	case tensor.Float32:
		xs := vals[float32](x)
		var y []float32
		if op.mode == 0 {
			y = vals[float32](dense(op, in[1]))
		}
		return edgeScore(op.a, op.mode, xs, y, x.Dtype()), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
}

func edgeScore[T Float](a *CSR, mode int, x, y []T, dt tensor.Dtype) *tensor.Dense {
	var out *tensor.Dense
	if mode == 0 {
		out = newDense(dt, a.NNZ())
	} else {
		out = newDense(dt, a.Rows)
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
	fmt.Fprintf(h, "engine.EdgeScores{mode=%d %d×%d nnz=%d id=%016x}", op.mode, op.a.Rows, op.a.Cols, op.a.NNZ(), op.a.ID())
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
	dd, err := G.ApplyOp(&edgeScoreOp{a: op.a, mode: 1}, grad)
	if err != nil {
		return nil, err
	}
	ds, err := G.ApplyOp(&edgeScoreOp{a: op.a, mode: 2}, grad)
	return G.Nodes{dd, ds}, err
}
