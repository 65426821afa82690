// Package infer computes a trained model's embeddings of every node of a
// graph too large for one forward pass, chunk by chunk over a fixed
// number of node slots.
//
// Its input (Input) is the whole graph's engine.GraphInput, the model, its
// parameters, its layers and the slots; it reads nothing of a run's
// configuration. A chunk is a ball of nodes grown over the graph's
// breadth-first order; its L-hop neighbourhood (every neighbour,
// whole-graph degrees) is staged into the slots (engine.SlotInput), the
// next chunk while one runs (engine.Prefetch), so every node's embedding is
// the whole-graph pass's up to the order of its neighbour sums. Where one
// node's neighbourhood outgrows the slots (a small world's), a staged
// model (models.Staged) runs layer-wise: one stage at a time over the
// whole graph, on one-hop chunks. A shard runs its consecutive range of
// the chunks one process would run, so shards gather to that process's
// rows bit for bit.
//
//	infer.go       Input, Inferer, New; the accessors tests and callers read
//	embeddings.go  Embeddings (float64, float32, into a spill file), Shard; run (chunked or layer-wise)
//	chunks.go      sizing the chunks, then running them; a row-wise stage's chunks
//	pipeline.go    a chunk staged, bound and run, the next staged ahead
//	grow.go        the breadth-first order and the chunks grown as balls over it
//	layerwise.go   the stages' graphs and the rows one stage hands the next
//	rowwriter.go   rows bound for a spill file, written sorted in runs
package infer
