package engine

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Buffer sharing. Every op of ours writes its output into a buffer it keeps
// between runs (opBase). Most of those outputs are dead long before the run
// ends — a backward gradient is read by one or two ops, a forward product
// only by the next layer — so planBuffers lets ops whose values are never
// live at the same time write into the same memory, as a compiler's register
// allocator does. On a 10⁶-node graph that is the difference between
// holding every N×hidden tensor of the tape and holding the live ones.
//
// The plan follows the TapeMachine's execution order, which is the reverse
// of G.Sort (gorgonia's Compile does exactly that). A value of ours is live
// from its op to the last op that reads it. Gorgonia's own ops may return
// one of their inputs' memory (a reshape, or an in-place add of gradients
// when the register allocator finds the input dead), so an input read by a
// gorgonia op stays live as long as that op's output does, transitively.
// Gorgonia's register allocator gives every other node a fresh register
// (gorgonia v0.9.18 regalloc: only ops returning a pointer that overwrite
// an input reuse one), so no gorgonia op writes into a buffer of ours
// except through those inputs.
//
// Pinned nodes (values read after the run: the loss, logged terms, the
// parameters' gradients Adam reads, the forward graph's output) keep private
// buffers and stay live to the end with whatever they alias, as do values that are
// small and nodes whose hash another node shares (gorgonia's common
// subexpression elimination could then read one for the other).
//
// The Trainer and the Forward graph of one ParamStore never run at the same
// time and nothing of ours is read across runs, so both plans draw from the
// store's one Arena: the peak is the larger graph's, not the sum.

// minShared is the smallest output (elements) worth sharing.
const minShared = 1024

// Arena holds the shared buffers of the graphs built on one ParamStore.
type Arena struct {
	bufs map[tensor.Dtype][]*arenaBuf
}

type arenaBuf struct {
	dt   tensor.Dtype
	size int // elements: the largest output assigned to it
	mem  any // []float32 or []float64 of length size, allocated on first use
	gen  int // bumped when size grows (the old memory is dropped)
}

func (a *arenaBuf) backing() any {
	if a.mem == nil {
		switch a.dt {
		case tensor.Float32:
			a.mem = make([]float32, a.size)
		case tensor.Float64:
			a.mem = make([]float64, a.size)
		default:
			panic(fmt.Sprintf("engine: arena dtype %v", a.dt))
		}
	}
	return a.mem
}

// sharedOutput returns the (not zeroed) view of buf's memory for shape, reusing
// the op's header while the memory stays the same.
func (b *opBase) sharedOutput(dt tensor.Dtype, size int, shape []int) *tensor.Dense {
	if b.out == nil || b.gen != b.buf.gen || !b.viewOfBuf || b.out.Dtype() != dt || !b.out.Shape().Eq(tensor.Shape(shape)) {
		var back any
		switch m := b.buf.backing().(type) {
		case []float32:
			back = m[:size]
		case []float64:
			back = m[:size]
		}
		b.out = tensor.New(tensor.WithShape(shape...), tensor.WithBacking(back))
		b.gen, b.viewOfBuf = b.buf.gen, true
	}
	return b.out
}

// bufferOwner is implemented by every op embedding opBase.
type bufferOwner interface{ base() *opBase }

func (b *opBase) base() *opBase { return b }

// BufferPlan reports what planBuffers did, for tests and the memory plan.
type BufferPlan struct {
	Ops     int   // our ops in the graph
	Shared  int   // of which write into arena buffers
	Buffers int   // arena buffers the graph uses
	Private int64 // bytes of outputs that keep a private buffer (pinned, small)
	Before  int64 // bytes of all our outputs, one buffer each
	After   int64 // bytes of the arena buffers this graph uses + Private
}

// planBuffers assigns arena buffers to the ops of g (see above). It must
// run after the graph is complete (after G.Grad) and before the first run.
func planBuffers(a *Arena, g *G.ExprGraph, pinned ...*G.Node) (BufferPlan, error) {
	var plan BufferPlan
	sorted, err := G.Sort(g)
	if err != nil {
		return plan, err
	}
	n := len(sorted)
	order := make([]*G.Node, n) // execution order
	idx := make(map[*G.Node]int, n)
	for i := range sorted {
		order[i] = sorted[n-1-i]
		idx[order[i]] = i
	}
	hashes := make(map[uint32]int, n)
	for _, nd := range order {
		hashes[nd.Hashcode()]++
	}
	isPinned := make(map[*G.Node]bool, len(pinned))
	for _, p := range pinned {
		isPinned[p] = true
	}
	ours := func(nd *G.Node) *opBase {
		if nd.Op() == nil {
			return nil
		}
		if o, ok := nd.Op().(bufferOwner); ok {
			return o.base()
		}
		return nil
	}
	// last[i]: the last execution step at which node i's memory may be read.
	last := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		nd := order[i]
		last[i] = i
		if isPinned[nd] {
			last[i] = n // read after the run, with what it aliases
		}
		it := g.To(nd.ID())
		for it != nil && it.Next() {
			j, ok := idx[it.Node().(*G.Node)]
			if !ok {
				continue
			}
			if ours(order[j]) != nil {
				last[i] = max(last[i], j)
			} else {
				last[i] = max(last[i], last[j])
			}
		}
	}
	type live struct {
		buf  *arenaBuf
		last int
	}
	if a.bufs == nil {
		a.bufs = map[tensor.Dtype][]*arenaBuf{}
	}
	used := map[*arenaBuf]bool{}
	var active []live
	free := map[tensor.Dtype][]*arenaBuf{}
	for _, b := range a.bufs[tensor.Float32] {
		free[tensor.Float32] = append(free[tensor.Float32], b)
	}
	for _, b := range a.bufs[tensor.Float64] {
		free[tensor.Float64] = append(free[tensor.Float64], b)
	}
	for i, nd := range order {
		ob := ours(nd)
		if ob == nil {
			continue
		}
		plan.Ops++
		ob.buf = nil
		dt := nd.Dtype()
		size := nd.Shape().TotalSize()
		bytes := int64(size) * int64(dt.Size())
		plan.Before += bytes
		// Release what died before this step.
		k := 0
		for _, l := range active {
			if l.last < i {
				free[l.buf.dt] = append(free[l.buf.dt], l.buf)
			} else {
				active[k] = l
				k++
			}
		}
		active = active[:k]
		if isPinned[nd] || size < minShared || hashes[nd.Hashcode()] > 1 || (dt != tensor.Float32 && dt != tensor.Float64) {
			plan.Private += bytes
			continue
		}
		// Best fit: the smallest free buffer that holds size, else the
		// largest one (grown), else a new one.
		fl := free[dt]
		best := -1
		for j, b := range fl {
			switch {
			case best < 0:
				best = j
			case b.size >= size && (fl[best].size < size || b.size < fl[best].size):
				best = j
			case fl[best].size < size && b.size > fl[best].size:
				best = j
			}
		}
		var buf *arenaBuf
		if best >= 0 {
			buf = fl[best]
			free[dt] = append(fl[:best], fl[best+1:]...)
		} else {
			buf = &arenaBuf{dt: dt}
			a.bufs[dt] = append(a.bufs[dt], buf)
		}
		if buf.size < size {
			buf.size, buf.mem = size, nil
			buf.gen++
		}
		ob.buf = buf
		used[buf] = true
		plan.Shared++
		active = append(active, live{buf, last[i]})
	}
	plan.Buffers = len(used)
	plan.After = plan.Private
	for b := range used {
		plan.After += int64(b.size) * int64(b.dt.Size())
	}
	return plan, nil
}
