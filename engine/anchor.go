package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"github.com/ignn/ignn/engine/internal/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// AnchorMessage is P-GNN's fused per-slot hidden layer: for every slot s
// (a node v and one of its anchor sets, with closest anchor a = arg[s] and
// node v = self[s]),
//
//	out_s = ReLU(f_s·HM[a] + HS[v] + b)
//
// with HM = h·W_msg and HS = h·W_self (N×D), f (S×1) the distance weights
// and b (1×D). One S×D output replaces the six S×D intermediates the
// unfused graph allocates. Gradients, with G' = g ⊙ [out > 0]:
// dHM[a] += f_s·G'_s, dHS[v] += G'_s, df_s = ⟨G'_s, HM[a]⟩, db = Σ_s G'_s.
// O(S·D) each way, split over fixed slot ranges (scatter-adds into one
// buffer per range, added in range order): bit-identical whatever GOMAXPROCS is.
func AnchorMessage(hmsg, hself, f, b, arg, self *G.Node) *G.Node {
	s := arg.Shape().TotalSize()
	d := hmsg.Shape()[1]
	if !hself.Shape().Eq(hmsg.Shape()) || f.Shape()[0] != s || b.Shape()[1] != d || self.Shape().TotalSize() != s {
		panic(fmt.Sprintf("engine: AnchorMessage: HM %v HS %v f %v b %v arg %v self %v",
			hmsg.Shape(), hself.Shape(), f.Shape(), b.Shape(), arg.Shape(), self.Shape()))
	}
	return G.Must(G.ApplyOp(&anchorOp{n: hmsg.Shape()[0]}, hmsg, hself, f, b, arg, self))
}

// anchorOp modes: 0 forward (HM, HS, f, b, arg, self) → out; 1 (G', f, arg)
// → dHM; 2 (G', self) → dHS; 3 (G', HM, arg) → df.
type anchorOp struct {
	opBase

	mode   int
	n      int                   // nodes (rows of HM)
	chunks [rowChunks - 1]opBase // scatter buffers of slot chunks 1…3 (modes 1, 2)
}

// scatter runs add over the S slots: serially into o when the work is
// small, else over rowChunks fixed slot ranges, chunk 0 into o and the
// others into their own zeroed N×D buffers, added to o in chunk order —
// bit-identical whatever GOMAXPROCS is.
func anchorScatter[T Float](op *anchorOp, o []T, slots, d int, add func(o []T, lo, hi int)) {
	if slots*d < minParallelWork {
		add(o, 0, slots)
		return
	}
	bd := evenBounds(slots)
	bufs := [rowChunks][]T{o}
	for c := 1; c < rowChunks; c++ {
		bufs[c] = vals[T](op.chunks[c-1].output(tensorDtype[T](), op.n, d))
	}
	runRanges(bd, func(lo, hi int) { add(bufs[chunkOf(bd, lo, hi)], lo, hi) })
	parallelRanges(evenBounds(len(o)), len(o), func(lo, hi int) {
		for c := 1; c < rowChunks; c++ {
			for k, v := range bufs[c][lo:hi] {
				o[lo+k] += v
			}
		}
	})
}

func (op *anchorOp) Arity() int { return [...]int{6, 3, 2, 3}[op.mode] }
func (op *anchorOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := tt(2, a)
	switch op.mode {
	case 0:
		return hm.NewFnType(m, m, m, m, intVec, intVec, m)
	case 2:
		return hm.NewFnType(m, intVec, m)
	default:
		return hm.NewFnType(m, m, intVec, m)
	}
}
func (op *anchorOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s0 := in[0].(tensor.Shape)
	switch op.mode {
	case 0:
		return tensor.Shape{in[4].(tensor.Shape).TotalSize(), s0[1]}, nil
	case 3:
		return tensor.Shape{s0[0], 1}, nil
	default:
		return tensor.Shape{op.n, s0[1]}, nil
	}
}
func (op *anchorOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	switch x.Dtype() {
	case tensor.Float64:
		return anchorDo[float64](op, in), nil
	case tensor.Float32:
		return anchorDo[float32](op, in), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, x.Dtype())
}

func anchorDo[T Float](op *anchorOp, in []G.Value) *tensor.Dense {
	data := func(i int) []T { return vals[T](dense(op, in[i])) }
	x := dense(op, in[0])
	d := x.Shape()[1]
	switch op.mode {
	case 0:
		hmv, hsv, f, b := data(0), data(1), data(2), data(3)
		arg, self := ints(op, in[4]), ints(op, in[5])
		checkIdx(op, arg, op.n)
		checkIdx(op, self, op.n)
		if _, ok := any(hmv).([]float32); ok && blas.Kernels() && d%8 == 0 && len(arg) > 0 {
			// The kernel writes every element: no zeroing.
			out := op.outputRaw(x.Dtype(), len(arg), d)
			o32 := vals[float32](out)
			hm32, hs32, f32, b32 := any(hmv).([]float32), any(hsv).([]float32), any(f).([]float32), any(b).([]float32)
			parallelRanges(evenBounds(len(arg)), len(arg)*d, func(lo, hi int) {
				if lo < hi {
					blas.AnchorForward(o32[lo*d:hi*d], hm32, hs32, b32, f32[lo:hi], arg[lo:hi], self[lo:hi], d)
				}
			})
			return out
		}
		out := op.output(x.Dtype(), len(arg), d)
		o := vals[T](out)
		parallelRanges(evenBounds(len(arg)), len(arg)*d, func(lo, hi int) {
			for s := lo; s < hi; s++ {
				fs, ha, hs, os := f[s], hmv[arg[s]*d:(arg[s]+1)*d], hsv[self[s]*d:(self[s]+1)*d], o[s*d:(s+1)*d]
				for k := range os {
					if v := fs*ha[k] + hs[k] + b[k]; v > 0 {
						os[k] = v
					}
				}
			}
		})
		return out
	case 1:
		g, f, arg := data(0), data(1), ints(op, in[2])
		checkIdx(op, arg, op.n) // the op's own error, before any row is written
		out := op.output(x.Dtype(), op.n, d)
		anchorScatter(op, vals[T](out), len(arg), d, func(o []T, lo, hi int) {
			if o32, ok := any(o).([]float32); ok && blas.Kernels() && d%8 == 0 && lo < hi {
				blas.ScatterAxpy(o32, any(g).([]float32)[lo*d:hi*d], any(f).([]float32)[lo:hi], arg[lo:hi], d)
				return
			}
			for s := lo; s < hi; s++ {
				fs, gs, oa := f[s], g[s*d:(s+1)*d], o[arg[s]*d:(arg[s]+1)*d]
				for k := range gs {
					oa[k] += fs * gs[k]
				}
			}
		})
		return out
	case 2:
		g, self := data(0), ints(op, in[1])
		checkIdx(op, self, op.n)
		out := op.output(x.Dtype(), op.n, d)
		anchorScatter(op, vals[T](out), len(self), d, func(o []T, lo, hi int) {
			if o32, ok := any(o).([]float32); ok && blas.Kernels() && d%8 == 0 && lo < hi {
				blas.ScatterAxpy(o32, any(g).([]float32)[lo*d:hi*d], nil, self[lo:hi], d)
				return
			}
			for s := lo; s < hi; s++ {
				gs, ov := g[s*d:(s+1)*d], o[self[s]*d:(self[s]+1)*d]
				for k := range gs {
					ov[k] += gs[k]
				}
			}
		})
		return out
	default:
		g, hmv, arg := data(0), data(1), ints(op, in[2])
		out := op.output(x.Dtype(), len(arg), 1)
		o := vals[T](out)
		parallelRanges(evenBounds(len(arg)), len(arg)*d, func(lo, hi int) {
			for s := lo; s < hi; s++ {
				gs, ha := g[s*d:(s+1)*d], hmv[arg[s]*d:(arg[s]+1)*d]
				var t T
				for k := range gs {
					t += gs[k] * ha[k]
				}
				o[s] = t
			}
		})
		return out
	}
}

func (op *anchorOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.AnchorMessage{mode=%d n=%d}", op.mode, op.n)
}
func (op *anchorOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *anchorOp) String() string {
	return [...]string{"AnchorMessage", "AnchorMessageDHM", "AnchorMessageDHS", "AnchorMessageDF"}[op.mode]
}
func (op *anchorOp) DiffWRT(int) []bool {
	if op.mode == 0 {
		return []bool{true, true, true, true, false, false}
	}
	return make([]bool, op.Arity())
}
func (op *anchorOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	if op.mode != 0 {
		return nil, fmt.Errorf("engine: %s is not differentiable", op)
	}
	gp, err := G.ApplyOp(&reluOp{grad: true}, out, grad)
	if err != nil {
		return nil, err
	}
	dhm, err := G.ApplyOp(&anchorOp{mode: 1, n: op.n}, gp, in[2], in[4])
	if err != nil {
		return nil, err
	}
	dhs, err := G.ApplyOp(&anchorOp{mode: 2, n: op.n}, gp, in[5])
	if err != nil {
		return nil, err
	}
	df, err := G.ApplyOp(&anchorOp{mode: 3, n: op.n}, gp, in[0], in[4])
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(&bcastOp{mode: bcColSum}, gp)
	return G.Nodes{dhm, dhs, df, db, nil, nil}, err
}
