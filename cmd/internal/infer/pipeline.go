package infer

import (
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// Running an Inferer's chunks: each chunk's subgraph and input rows are
// staged (stageChunk), bound (useChunk) and run (forward); chunks whose
// bounds are known run pipelined, the next one staged while one runs
// (runChunks).

// runChunks runs the forward pass on chunks k0 … k1−1, chunk k the seeds
// seedsOf(k) (a slice that stays as it is while the chunk runs) with their
// hops-hop neighbourhood, and with
// engine.Prefetch prepares chunk k+1 — its subgraph and input rows, the
// mostly serial part of a chunk — on another goroutine while chunk k runs:
// the same inputs in the same order, so the same numbers.
func (f *Inferer) runChunks(rng *rand.Rand, k0, k1, hops int, seedsOf func(k int) []int32, alloc func(d int), put func(v int, row []float64)) (int, error) {
	f.Chunks = 0
	prepare := func(k int) ([]int32, error) {
		seeds := seedsOf(k)
		cut, err := f.slots.Sub.Build(seeds, hops, 0, nil)
		if err == nil && cut > 0 {
			f.slots.Sub.Clear()
			err = &noFitError{hops, len(seeds), int(seeds[0]), f.slots.Sub.Slots}
		}
		if err != nil {
			return nil, err
		}
		f.stageChunk()
		return seeds, nil
	}
	d := 0
	seeds, err := prepare(k0)
	for k := k0; k < k1; k++ {
		if err != nil {
			return 0, err
		}
		f.useChunk()
		var ahead *engine.Ahead[[]int32]
		if engine.Prefetch && k+1 < k1 {
			f.ahead++
			ahead = engine.Go(func() ([]int32, error) { return prepare(k + 1) })
		}
		dd, ferr := f.forward(rng, seeds, alloc, put)
		var next []int32
		var nerr error
		if ahead != nil {
			next, nerr = ahead.Wait()
		}
		if ferr != nil {
			if next != nil && nerr == nil {
				f.useChunk() // take the staged chunk, so that a later pass may stage its own
			}
			return 0, ferr
		}
		d = dd
		if ahead == nil && k+1 < k1 {
			next, nerr = prepare(k + 1)
		}
		seeds, err = next, nerr
	}
	return d, nil
}

// stageChunk stages the input of the subgraph just built around a chunk's
// seeds (f.slots.Sub, cleared here) — its adjacency, and its input and
// skip rows or the stage's rows of the stage before — apart from what a
// running forward pass reads (engine.SlotInput.Stage); useChunk binds them.
func (f *Inferer) stageChunk() {
	f.slots.Stage(true, f.stage == 0, f.skipped())
	if f.stage > 0 {
		f.prev.gather(f.stages[f.stage].next, f.slots.Sub.Nodes)
	}
	f.slots.Sub.Clear()
}

// useChunk binds the chunk stageChunk staged to the forward graph.
func (f *Inferer) useChunk() {
	f.slots.Use(f.stage == 0, f.skipped())
	if f.stage > 0 {
		st := &f.stages[f.stage] // the buffers trade places: the graph's input reads the staged rows
		st.h, st.next = st.next, st.h
		if err := G.Let(st.in, st.h); err != nil {
			panic(fmt.Sprintf("infer: binding stage %d's rows: %v", f.stage, err)) // the same shape and type as at build
		}
	}
}

// skipped reports whether the forward graph f runs reads the skip rows:
// the whole model's, or the last stage's.
func (f *Inferer) skipped() bool {
	return f.slots.Skip != nil && (f.stages == nil || f.stage == len(f.stages)-1)
}

// forward runs the forward graph (the stage's, layer-wise) on the chunk
// useChunk bound and puts the seeds' rows (seeds hold slots 0 …
// len(seeds)−1, in order); alloc(d) runs on the first call (Chunks 0).
func (f *Inferer) forward(rng *rand.Rand, seeds []int32, alloc func(d int), put func(v int, row []float64)) (int, error) {
	fwd := f.fwd
	if f.stages != nil {
		fwd = f.stages[f.stage].fwd
	}
	first := f.Chunks == 0 // alloc(d) before the first row is put
	d, err := fwd.RunRows(rng, len(seeds), func(r int, row []float64) {
		if first {
			alloc(len(row))
			first = false
		}
		put(int(seeds[r]), row)
	})
	if err != nil {
		return 0, err
	}
	if first {
		alloc(d)
	}
	f.Chunks++
	return d, nil
}
