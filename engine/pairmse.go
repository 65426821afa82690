package engine

import (
	"fmt"
	"hash"
	"sync/atomic"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
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
// instruction each way). Each block is computed as a Gram matrix with BLAS:
// forward S = Z_b·Z_bᵀ and the residuals R = S − C (zero diagonal), kept for
// the backward pass; gradient dZ_b = 2·g·w·R·Z_b (R is symmetric, so this is
// dz_i = 2·g·w·Σ_{j≠i} (⟨z_i, z_j⟩ − C_ij)·z_j). gonum's Gemm computes each
// output block wholly in one goroutine in a fixed order, and the loss adds
// per-row sums in row order: bit-identical whatever GOMAXPROCS is.
// Cost O(Σ n²·D) each way, O(Σ n²) scratch.
func PairMSE(z *G.Node, blocks []MSEBlock, w float64) *G.Node {
	if z.Dims() != 2 {
		panic(fmt.Sprintf("engine: PairMSE: Z has shape %v, want a matrix", z.Shape()))
	}
	end := 0
	for _, b := range blocks {
		if b.Off < 0 || b.Off+b.N > z.Shape()[0] || len(b.C) != b.N*b.N {
			panic(fmt.Sprintf("engine: PairMSE: block at %d of %d rows (C has %d values) does not fit Z %v", b.Off, b.N, len(b.C), z.Shape()))
		}
		if b.Off < end {
			panic(fmt.Sprintf("engine: PairMSE: block at row %d overlaps or precedes the block ending at row %d (blocks must be disjoint, in row order)", b.Off, end))
		}
		end = b.Off + b.N
	}
	return G.Must(G.ApplyOp(&pairMSEOp{blocks: blocks, w: w, id: pairMSEIDs.Add(1), st: &gramState{}}, z))
}

type pairMSEOp struct {
	opBase
	blocks []MSEBlock
	w      float64
	id     uint64
	grad   bool
	st     *gramState // shared by the forward op and its gradient op
	sc     scalarOut  // the forward output
}

// gramState holds the forward pass's residual matrices (one per block, in
// the graph's dtype) for the backward pass of the same run: the gradient
// node depends on the loss, so the forward always runs first.
type gramState struct {
	r32 [][]float32
	r64 [][]float64
	per []float64 // per-row sums of the forward pass
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

func (op *pairMSEOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairMSE", in[0])
	d := z.Shape()[1]
	if op.grad {
		g := scalar(in[1])
		out := op.output(z.Dtype(), z.Shape()...)
		switch z.Dtype() {
		case tensor.Float64:
			zs := vals[float64](z)
			pairMSEBackward(op, zs, vals[float64](out), d, g)
		case tensor.Float32:
			zs := vals[float32](z)
			pairMSEBackward(op, zs, vals[float32](out), d, g)
		default:
			return nil, fmt.Errorf("engine: PairMSE: unsupported dtype %v", z.Dtype())
		}
		return out, nil
	}
	switch z.Dtype() {
	case tensor.Float64:
		zs := vals[float64](z)
		return op.sc.set64(pairMSEForward(op, zs, d)), nil
	case tensor.Float32:
		zs := vals[float32](z)
		return op.sc.set32(float32(pairMSEForward(op, zs, d))), nil
	}
	return nil, fmt.Errorf("engine: PairMSE: unsupported dtype %v", z.Dtype())
}

// residuals returns the op's per-block residual buffers for element type T.
func residuals[T Float](st *gramState, blocks []MSEBlock) [][]T {
	var r any
	switch any(T(0)).(type) {
	case float32:
		if len(st.r32) != len(blocks) {
			st.r32 = make([][]float32, len(blocks))
			for i, b := range blocks {
				st.r32[i] = make([]float32, b.N*b.N)
			}
		}
		r = st.r32
	default:
		if len(st.r64) != len(blocks) {
			st.r64 = make([][]float64, len(blocks))
			for i, b := range blocks {
				st.r64[i] = make([]float64, b.N*b.N)
			}
		}
		r = st.r64
	}
	return r.([][]T)
}

// gemm computes c = alpha·op(a)·op(b) (+ beta·c) on row-major slices.
func gemm[T Float](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemm(tA, tB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas64.Implementation().Dgemm(tA, tB, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// pairMSEForward forms each block's Gram matrix and residuals, then sums
// each row's residuals with later rows into its own slot, the slots in order.
func pairMSEForward[T Float](op *pairMSEOp, z []T, d int) float64 {
	rs := residuals[T](op.st, op.blocks)
	var total float64
	for bi, b := range op.blocks {
		if b.N == 0 {
			continue
		}
		zb, r := z[b.Off*d:(b.Off+b.N)*d], rs[bi]
		gemm(blas.NoTrans, blas.Trans, b.N, b.N, d, 1, zb, d, zb, d, 0, r, b.N)
		op.st.per = grow(op.st.per, b.N)
		per := op.st.per
		parallelRanges(evenBounds(b.N), b.N*b.N*4, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				ri, ci := r[i*b.N:(i+1)*b.N], b.C[i*b.N:(i+1)*b.N]
				var s float64
				for j := range ri {
					if j == i {
						ri[j] = 0
						continue
					}
					e := float64(ri[j]) - ci[j]
					ri[j] = T(e)
					if j > i {
						s += e * e
					}
				}
				per[i] = s
			}
		})
		for _, s := range per {
			total += s
		}
	}
	return op.w * total
}

// pairMSEBackward writes dZ_b = 2·g·w·R·Z_b for every block (rows outside
// every block stay zero), from the residuals of the forward pass.
func pairMSEBackward[T Float](op *pairMSEOp, z, dz []T, d int, g float64) {
	rs := residuals[T](op.st, op.blocks)
	k := T(2 * g * op.w)
	for bi, b := range op.blocks {
		if b.N == 0 {
			continue
		}
		gemm(blas.NoTrans, blas.NoTrans, b.N, d, b.N, k, rs[bi], b.N, z[b.Off*d:(b.Off+b.N)*d], d, 0, dz[b.Off*d:(b.Off+b.N)*d], d)
	}
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
