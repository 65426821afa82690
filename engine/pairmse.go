package engine

import (
	"fmt"
	"hash"
	"sync/atomic"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// MSEBlock is one graph of an all-pairs MSE: rows Off..Off+N−1 of Z and the
// N×N symmetric target matrix C (row-major; the diagonal is unused).
type MSEBlock struct {
	Off, N int
	C      []float64
}

var pairMSEIDs atomic.Uint64

// PairMSE returns the scalar Σ_blocks Σ_{i<j} w·(C_ij − ⟨z_i, z_j⟩)² for an
// N×D matrix node Z: the MSE term over every intra-graph pair, fused into
// one op (no pair index inputs, no P-length intermediates, one tape
// instruction each way). Rows are independent, so both passes split rows
// over a fixed 4-way partition and add per-row results in row order:
// bit-identical whatever GOMAXPROCS is. The gradient is
// dz_i = 2·g·w·Σ_{j≠i} (⟨z_i, z_j⟩ − C_ij)·z_j. Cost O(Σ n²·D) each way.
func PairMSE(z *G.Node, blocks []MSEBlock, w float64) *G.Node {
	if z.Dims() != 2 {
		panic(fmt.Sprintf("engine: PairMSE: Z has shape %v, want a matrix", z.Shape()))
	}
	for _, b := range blocks {
		if b.Off < 0 || b.Off+b.N > z.Shape()[0] || len(b.C) != b.N*b.N {
			panic(fmt.Sprintf("engine: PairMSE: block at %d of %d rows (C has %d values) does not fit Z %v", b.Off, b.N, len(b.C), z.Shape()))
		}
	}
	return G.Must(G.ApplyOp(&pairMSEOp{blocks: blocks, w: w, id: pairMSEIDs.Add(1)}, z))
}

type pairMSEOp struct {
	opBase
	blocks []MSEBlock
	w      float64
	id     uint64
	grad   bool
}

func (op *pairMSEOp) Arity() int {
	if op.grad {
		return 2
	}
	return 1
}
func (op *pairMSEOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.grad {
		return hm.NewFnType(tt(2, a), a, tt(2, a))
	}
	return hm.NewFnType(tt(2, a), a)
}
func (op *pairMSEOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if op.grad {
		return in[0].(tensor.Shape).Clone(), nil
	}
	return tensor.ScalarShape(), nil
}

// rows lists (block, local row) for every row the op touches.
func (op *pairMSEOp) rows() (blk, row []int) {
	for bi, b := range op.blocks {
		for i := 0; i < b.N; i++ {
			blk, row = append(blk, bi), append(row, i)
		}
	}
	return blk, row
}

func (op *pairMSEOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairMSE", in[0])
	d := z.Shape()[1]
	if op.grad {
		g := scalar(in[1])
		out := op.output(z.Dtype(), z.Shape()...)
		switch zs := z.Data().(type) {
		case []float64:
			op.backward(zs, out.Data().([]float64), d, g)
		case []float32:
			op.backward32(zs, out.Data().([]float32), d, g)
		default:
			return nil, fmt.Errorf("engine: PairMSE: unsupported dtype %v", z.Dtype())
		}
		return out, nil
	}
	var loss float64
	switch zs := z.Data().(type) {
	case []float64:
		loss = pairMSEForward(op, zs, d)
		return G.NewF64(loss), nil
	case []float32:
		loss = pairMSEForward(op, zs, d)
		return G.NewF32(float32(loss)), nil
	}
	return nil, fmt.Errorf("engine: PairMSE: unsupported dtype %v", z.Dtype())
}

// pairMSEForward sums each row's pairs with later rows into its own slot,
// then the slots in order.
func pairMSEForward[T Float](op *pairMSEOp, z []T, d int) float64 {
	blk, row := op.rows()
	per := make([]float64, len(row))
	parallelRanges(evenBounds(len(row)), len(row)*d*64, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			b := op.blocks[blk[r]]
			i := row[r]
			zi := z[(b.Off+i)*d : (b.Off+i+1)*d]
			var s float64
			for j := i + 1; j < b.N; j++ {
				e := b.C[i*b.N+j] - float64(dot4(zi, z[(b.Off+j)*d:(b.Off+j+1)*d]))
				s += e * e
			}
			per[r] = s
		}
	})
	var total float64
	for _, s := range per {
		total += s
	}
	return op.w * total
}

func (op *pairMSEOp) backward(z, dz []float64, d int, g float64) { pairMSEBackward(op, z, dz, d, g) }
func (op *pairMSEOp) backward32(z, dz []float32, d int, g float64) {
	pairMSEBackward(op, z, dz, d, g)
}

func pairMSEBackward[T Float](op *pairMSEOp, z, dz []T, d int, g float64) {
	blk, row := op.rows()
	k := 2 * g * op.w
	parallelRanges(evenBounds(len(row)), len(row)*d*64, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			b := op.blocks[blk[r]]
			i := row[r]
			zi := z[(b.Off+i)*d : (b.Off+i+1)*d]
			gi := dz[(b.Off+i)*d : (b.Off+i+1)*d]
			for j := 0; j < b.N; j++ {
				if j == i {
					continue
				}
				zj := z[(b.Off+j)*d : (b.Off+j+1)*d]
				c := T(k * (float64(dot4(zi, zj)) - b.C[i*b.N+j]))
				for x := range gi {
					gi[x] += c * zj[x]
				}
			}
		}
	})
}

// dot4 is ⟨a, b⟩ with four accumulators in a fixed order (as PairDot).
func dot4[T Float](a, b []T) T {
	b = b[:len(a)]
	var s0, s1, s2, s3 T
	k := 0
	for ; k+4 <= len(a); k += 4 {
		s0 += a[k] * b[k]
		s1 += a[k+1] * b[k+1]
		s2 += a[k+2] * b[k+2]
		s3 += a[k+3] * b[k+3]
	}
	for ; k < len(a); k++ {
		s0 += a[k] * b[k]
	}
	return (s0 + s1) + (s2 + s3)
}

func (op *pairMSEOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.PairMSE{id=%d grad=%v w=%g}", op.id, op.grad, op.w)
}
func (op *pairMSEOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *pairMSEOp) String() string {
	if op.grad {
		return fmt.Sprintf("PairMSEGrad[%d]", op.id)
	}
	return fmt.Sprintf("PairMSE[%d]", op.id)
}
func (op *pairMSEOp) DiffWRT(int) []bool { return []bool{true} }
func (op *pairMSEOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	g := *op
	g.grad = true
	dz, err := G.ApplyOp(&g, in[0], grad)
	return G.Nodes{dz}, err
}
