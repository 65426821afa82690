package engine

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BiasReLUDropout returns dropout(ReLU(x + b), p) for x (N×D) and a new bias
// parameter b (1×D) named name, in one op: one N×D output instead of three
// (sum, activation, masked), one N×D gradient instead of two. On evaluation
// graphs, or when p is 0, there is no mask. The result equals
// Dropout(ReLU(AddBias(x)), p) bit for bit (the same mask stream and the same
// arithmetic). Gradients, with G' = g ⊙ m ⊙ [out > 0]: dx = G',
// db = column sums of G'.
func (b *Builder) BiasReLUDropout(name string, x *G.Node, init Init, dropName string, p float64) *G.Node {
	d := x.Shape()[1]
	bv := b.Param(name, init, 1, d)
	op := &biasActOp{name: name}
	if b.Train && p > 0 {
		if p >= 1 {
			panic(fmt.Sprintf("engine: dropout rate %g must be < 1", p))
		}
		b.claim(dropName)
		op.m = &dropMask{p: p, t: tensor.New(tensor.WithShape(x.Shape()...), tensor.Of(b.DT()))}
		b.masks = append(b.masks, op.m)
	}
	return G.Must(G.ApplyOp(op, x, bv))
}

// biasActOp: forward (x, b) → ReLU(x + b) ⊙ m; grad mode (out, g) → G'.
type biasActOp struct {
	opBase
	name string
	m    *dropMask // nil: no dropout
	grad bool
}

func (*biasActOp) Arity() int { return 2 }
func (*biasActOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), tt(2, a), tt(2, a))
}
func (*biasActOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *biasActOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x, y := dense(op, in[0]), dense(op, in[1])
	out := op.outputRaw(x.Dtype(), x.Shape()...) // biasActRows writes every element
	d := x.Shape()[1]
	if op.m != nil {
		if op.m.t.Dtype() != x.Dtype() || op.m.t.Shape().TotalSize() != x.Shape().TotalSize() {
			return nil, fmt.Errorf("engine: %s: input %v %v, mask %v %v", op, x.Dtype(), x.Shape(), op.m.t.Dtype(), op.m.t.Shape())
		}
	}
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var m []float64
		if op.m != nil {
			m = vals[float64](op.m.t)
		}
		biasAct(op.grad, xs, vals[float64](y), m, vals[float64](out), d)
	case tensor.Float32:
		xs := vals[float32](x)
		var m []float32
		if op.m != nil {
			m = vals[float32](op.m.t)
		}
		biasAct(op.grad, xs, vals[float32](y), m, vals[float32](out), d)
	default:
		return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

// biasAct: forward a = x (N×D), c = bias (D): out = max(a + c, 0)·m;
// grad a = out, c = g (N×D): out = g·m where out > 0. Rows split over the
// fixed partition.
func biasAct[T Float](grad bool, a, c, m, out []T, d int) {
	n := len(a) / d
	if len(a) < minParallelWork { // no closure: it would be allocated every call
		biasActRows(grad, a, c, m, out, d, 0, n)
		return
	}
	parallelRanges(evenBounds(n), len(a), func(lo, hi int) { biasActRows(grad, a, c, m, out, d, lo, hi) })
}

func biasActRows[T Float](grad bool, a, c, m, out []T, d, lo, hi int) {
	if a32, ok := any(a).([]float32); ok {
		biasActRows32(grad, a32, any(c).([]float32), any(m).([]float32), any(out).([]float32), d, lo, hi)
		return
	}
	for r := lo; r < hi; r++ {
		ar, outr := a[r*d:(r+1)*d], out[r*d:(r+1)*d]
		var mr []T
		if m != nil {
			mr = m[r*d : (r+1)*d]
		}
		if grad { // c is the gradient, N×D
			cr := c[r*d : (r+1)*d]
			for k, x := range ar {
				var v T
				if x > 0 {
					v = cr[k]
					if mr != nil {
						v *= mr[k]
					}
				}
				outr[k] = v
			}
			continue
		}
		cr := c[:d] // c is the bias, D
		for k, x := range ar {
			v := x + cr[k]
			if !(v > 0) { // NaN too
				v = 0
			} else if mr != nil {
				v *= mr[k]
			}
			outr[k] = v
		}
	}
}

func (op *biasActOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.BiasReLUDropout{%s grad=%v %p}", op.name, op.grad, op.m)
}
func (op *biasActOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *biasActOp) String() string {
	if op.grad {
		return "BiasReLUDropoutGrad[" + op.name + "]"
	}
	return "BiasReLUDropout[" + op.name + "]"
}
func (op *biasActOp) DiffWRT(int) []bool { return []bool{!op.grad, !op.grad} }
func (op *biasActOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.grad {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	gp, err := G.ApplyOp(&biasActOp{name: op.name, m: op.m, grad: true}, out, grad)
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(&bcastOp{mode: bcColSum}, gp)
	return G.Nodes{gp, db}, err
}

// biasActRows32 is biasActRows for float32, without a branch on the data:
// each value is computed whether it is kept or not and kept by an integer
// mask from its sign test's bits (positive32). A float test branches, and
// ReLU's sign and a p = 0.5 mask mispredict about every other entry. The
// same sums and products, so the same bits.
func biasActRows32(grad bool, a, c, m, out []float32, d, lo, hi int) {
	for r := lo; r < hi; r++ {
		ar, outr := a[r*d:(r+1)*d], out[r*d:(r+1)*d]
		if grad { // c is the gradient, N×D: out = g·m where a > 0
			cr := c[r*d : (r+1)*d]
			if m != nil {
				mr := m[r*d : (r+1)*d]
				for k, x := range ar {
					outr[k] = math.Float32frombits(math.Float32bits(cr[k]*mr[k]) & positive32(x))
				}
				continue
			}
			for k, x := range ar {
				outr[k] = math.Float32frombits(math.Float32bits(cr[k]) & positive32(x))
			}
			continue
		}
		cr := c[:d] // c is the bias, D: out = (a + c)·m where a + c > 0
		if m != nil {
			mr := m[r*d : (r+1)*d]
			for k, x := range ar {
				s := x + cr[k]
				outr[k] = math.Float32frombits(math.Float32bits(s*mr[k]) & positive32(s))
			}
			continue
		}
		for k, x := range ar {
			s := x + cr[k]
			outr[k] = math.Float32frombits(math.Float32bits(s) & positive32(s))
		}
	}
}

// positive32 is all ones when x > 0 (+Inf included; not ±0, NaN or a
// negative), else 0, computed without a branch: x > 0 exactly when its
// bits b are 1 … 0x7f800000, so b − 1 (as 64 bits) − 0x7f800000 is
// negative, and its sign spread over 32 bits is the mask.
func positive32(x float32) uint32 {
	b := uint64(math.Float32bits(x) - 1) // +0: wraps to 2³²−1, not positive
	return uint32(int64(b-0x7f800000) >> 63)
}
