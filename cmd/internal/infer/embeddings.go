package infer

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/ignn/ignn/data"
)

// The embeddings of every node (Embeddings, Embeddings32, or written to a
// spill file), or of a shard's chunks (Shard): a pass over the chunks, or
// layer-wise over the stages (run).

// Embeddings returns the N × D embeddings, row-major.
func (f *Inferer) Embeddings(rng *rand.Rand) ([]float64, int, error) {
	var out []float64
	d, err := f.pass(rng, func(d int) { out = make([]float64, f.n*d) }, func(v int, row []float64) {
		copy(out[v*len(row):(v+1)*len(row)], row)
	})
	return out, d, err
}

// Embeddings32 is Embeddings stored in float32: a float32 run's values
// exactly (its graph computes in float32), in half the memory (1.3 GB
// fewer at 10⁷ nodes × 32).
func (f *Inferer) Embeddings32(rng *rand.Rand) ([]float32, int, error) {
	var out []float32
	d, err := f.pass(rng, func(d int) { out = make([]float32, f.n*d) }, func(v int, row []float64) {
		for j, x := range row {
			out[v*len(row)+j] = float32(x)
		}
	})
	return out, d, err
}

// EmbeddingsSpilled is Embeddings32 written to a spill file in dir, a row
// at a time as the chunks produce them, instead of held (N × D × 4 B,
// 12.8 GB at 10⁸ nodes × 32). A non-finite value is an error, as
// evaluate's check of held embeddings makes it.
func (f *Inferer) EmbeddingsSpilled(rng *rand.Rand, dir string) (*data.Spill[float32], int, error) {
	var s *data.Spill[float32]
	var w *rowWriter
	var werr error
	d, err := f.pass(rng, func(d int) {
		s, werr = data.NewSpill[float32](dir, f.n, d)
		w = &rowWriter{s: s, d: d}
	}, func(v int, row []float64) {
		if werr != nil {
			return
		}
		row32 := w.next(v)
		for j, x := range row {
			row32[j] = float32(x)
			if y := float64(row32[j]); math.IsNaN(y) || math.IsInf(y, 0) { // float32's range: the held check's
				werr = DivergedError(row32[j])
				return
			}
		}
		if w.full() {
			werr = w.flush()
		}
	})
	if err == nil && werr == nil && w != nil {
		werr = w.flush()
	}
	if err == nil {
		err = werr
	}
	if err != nil {
		if s != nil {
			s.Close()
		}
		return nil, 0, err
	}
	return s, d, nil
}

// pass runs the forward graph chunk by chunk: alloc(d) once the width is
// known, then put(v, row) for every node v's row of d values.
func (f *Inferer) pass(rng *rand.Rand, alloc func(d int), put func(v int, row []float64)) (int, error) {
	f.passes++
	return f.run(rng, 0, -1, alloc, put)
}

// Shard computes the embeddings of shard i of n: the nodes of chunks
// [i·C/n, (i+1)·C/n) of the C chunks one process runs (sized first), each
// run as one process runs it, so every row is that process's bit for bit.
// rows are the nodes' global rows, z their rows of width d (float32
// values: what the graph computes in a float32 run).
func (f *Inferer) Shard(rng *rand.Rand, i, n int) (rows []int, z []float32, d int, err error) {
	if err := f.sizeChunks(); err != nil {
		return nil, nil, 0, err
	}
	c := f.lastChunks()
	k0, k1 := i*c/n, (i+1)*c/n
	if k0 == k1 {
		return nil, nil, 0, nil
	}
	d, err = f.run(rng, k0, k1, func(d int) {}, func(v int, row []float64) {
		rows = append(rows, v)
		for _, x := range row {
			z = append(z, float32(x))
		}
	})
	return rows, z, d, err
}

// run runs chunks k0 … k1−1 (k1 < 0: every chunk) of the embeddings,
// handing rows to put as pass does (put == nil only sizes the chunks): the
// whole model's chunks, or layer-wise every chunk of the stages before the
// last, then the last stage's k0 … k1−1. A staged model whose chunks do not
// fit switches to layer-wise inference and starts again (rows put before
// are put again; alloc runs once).
func (f *Inferer) run(rng *rand.Rand, k0, k1 int, alloc func(d int), put func(v int, row []float64)) (int, error) {
	if alloc != nil {
		once := alloc
		alloc = func(d int) {
			if once != nil {
				once(d)
				once = nil
			}
		}
	}
	if f.stages == nil {
		d, err := f.chunks(rng, k0, k1, alloc, put)
		var nf *noFitError
		if !errors.As(err, &nf) || f.staged == nil {
			return d, err
		}
		if err := f.layerwise(); err != nil {
			return 0, err
		}
		if put == nil || k1 >= 0 { // sizing (a shard sizes first): the one-hop chunks, then the shard's
			if _, err := f.chunks(nil, 0, -1, nil, nil); err != nil || put == nil {
				return 0, err
			}
		}
	}
	if put == nil {
		return f.chunks(nil, 0, -1, nil, nil)
	}
	defer func() { f.prev, f.stage = nil, 0 }()
	for s := range f.stages {
		f.stage = s
		runStage := f.chunks
		if f.staged.StageHops(s) == 0 {
			runStage = f.rowChunks
		}
		if s == len(f.stages)-1 {
			return runStage(rng, k0, k1, alloc, put)
		}
		var next *nodeRows
		if _, err := runStage(rng, 0, -1, func(d int) { next = newNodeRows(f.ps.DT, f.n, d) }, func(v int, row []float64) { next.set(v, row) }); err != nil {
			return 0, err
		}
		f.prev = next
	}
	return 0, nil
}
