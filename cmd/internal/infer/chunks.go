package infer

import "math/rand/v2"

// The chunks: sized by the first pass (or by sizeChunks, without running
// the model), then run pipelined; layer-wise, a row-wise stage's chunks
// are consecutive nodes.

// sizeChunks finds the chunks the first pass would (without running the
// forward graph) unless a pass has: what a shard needs to run its own
// chunks exactly as one process runs them.
func (f *Inferer) sizeChunks() error {
	if f.bounds != nil {
		return nil
	}
	_, err := f.run(nil, 0, -1, nil, nil)
	return err
}

// chunks runs chunks k0 … k1−1 of the sized chunks (k1 < 0: every chunk,
// sizing them first if no pass has), handing rows to put as pass does;
// put == nil only sizes the chunks. Sized chunks run pipelined
// (runChunks); the sizing pass runs one chunk at a time, each sized from
// the one before.
func (f *Inferer) chunks(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	if f.bounds != nil && put != nil {
		if k1 < 0 {
			k1 = len(f.bounds) - 1
		}
		return f.runChunks(rng, k0, k1, f.hops, func(k int) []int32 { return f.order[f.bounds[k]:f.bounds[k+1]] }, alloc, put)
	}
	n := f.n
	d := 0
	f.Chunks = 0
	sized := f.bounds != nil
	var g *grower
	if !sized {
		f.bounds = []int{0}
		g = newGrower(f.whole.Adj.Links(), f.order)
	}
	lo := 0
	if sized {
		lo = f.bounds[k0]
	}
	for k := k0; lo < n && k != k1; k++ {
		var hi int
		order := f.order
		if sized {
			hi = f.bounds[k+1]
		} else {
			hi = g.grow(f.chunk)
			order = g.chunks
		}
		seeds := order[lo:hi]
		cut, err := f.slots.Sub.Build(seeds, f.hops, 0, nil)
		if err == nil && cut > 0 {
			f.slots.Sub.Clear()
		}
		if err != nil || cut > 0 {
			if sized || hi-lo == 1 {
				if !sized {
					f.bounds = nil // a later pass sizes again, not from a partial list
				}
				return 0, &noFitError{f.hops, hi - lo, int(order[lo]), f.slots.Sub.Slots}
			}
			g.undo(lo)
			f.chunk = min(f.chunk, hi-lo) * 3 / 4
			k--
			continue
		}
		used := len(f.slots.Sub.Nodes)
		if put == nil {
			f.slots.Sub.Clear()
		} else {
			f.stageChunk()
			f.useChunk()
			dd, err := f.forward(rng, seeds, alloc, put)
			if err != nil {
				if !sized {
					f.bounds = nil // partial, and over the grower's order, not f.order: a later pass sizes again
				}
				return 0, err
			}
			d = dd
		}
		if !sized { // aim the next chunk's neighbourhood at 95% of the slots: every forward pass runs on all of them
			f.bounds = append(f.bounds, hi)
			f.chunk = max(1, min(f.slots.Sub.Slots, int(float64(hi-lo)*0.95*float64(f.slots.Sub.Slots)/float64(used))))
		}
		lo = hi
	}
	if !sized {
		f.order = g.chunks // the roots are no longer needed
	}
	return d, nil
}

// rowChunks is chunks for a row-wise stage (StageHops 0): chunk k is the
// nodes k·S … (k+1)·S − 1 of the S slots, no rim, every slot used.
func (f *Inferer) rowChunks(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	n, slots := f.n, f.slots.Sub.Slots
	if k1 < 0 {
		k1 = f.rowChunkCount()
	}
	var bufs [2][]int32 // chunk k's seeds in bufs[k%2]: the next chunk's are listed while a chunk runs
	return f.runChunks(rng, k0, k1, 0, func(k int) []int32 {
		b := bufs[k%2][:0]
		for v := k * slots; v < min(n, (k+1)*slots); v++ {
			b = append(b, int32(v))
		}
		bufs[k%2] = b
		return b
	}, alloc, put)
}

func (f *Inferer) rowChunkCount() int { return (f.n + f.slots.Sub.Slots - 1) / f.slots.Sub.Slots }

// lastChunks is how many chunks the embeddings' last pass runs, the
// chunks a shard takes its share of: the sized chunks, or layer-wise the
// last stage's.
func (f *Inferer) lastChunks() int {
	if f.stages != nil && f.staged.StageHops(len(f.stages)-1) == 0 {
		return f.rowChunkCount()
	}
	return len(f.bounds) - 1
}
