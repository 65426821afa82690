// Package engine runs gorgonia expression graphs with sparse message passing.
//
// It owns the pieces every model shares: compressed sparse row (CSR)
// adjacencies and their cached normalisations, the custom differentiable
// gorgonia ops gorgonia v0.9.18 lacks (sparse×dense products with constant or
// learnable edge values, segment softmax, fused pair inner products, row L2
// normalisation), the parameter store with unique hierarchical names, named
// seeded random streams, and the trainer: one training graph run by a
// TapeMachine with Adam, plus a forward-only evaluation graph that shares the
// parameter tensors.
//
// Mini-batches (batch.go) keep one graph for every batch: a batch
// adjacency (NewBatchAdjacency) and batch features (NewBatchFeatures) have
// fixed node slots, and Load/LoadRows replace their content between runs —
// the ops hold them by reference and read them when they run, transposes
// and float32 copies included. Subgraph (subgraph.go) is the loader that
// fills them: a batch's seed nodes and their L-hop neighbourhood (every
// neighbour, or a drawn fan-out) in node slots, loaded with whole-graph
// degrees. SlotInput (slotinput.go) is the two together, staged apart
// from a running graph and then bound, so that the next batch or
// inference chunk is prepared while one runs (Prefetch, Go and Ahead:
// ahead.go); AppendConst ends an embedding with constant columns at a
// share (Mix) its owner may change between runs (appendconst.go). Fit
// runs FitConfig.Steps steps per epoch. Softplus, RowDot and
// OtherThan are the scalar pieces the ops and every forward-only score and
// sampler above share.
//
// Its float32 kernels live in internal/blas: the AVX2+FMA Sgemm it installs
// for gorgonia and gonum's blas32 on CPUs that have them, and the AVX2
// sparse-row and element kernels its ops call there (elsewhere the ops run
// their Go loops and Gemm stays gonum's).
//
// engine imports no other package of this module but its own internal/blas.
package engine
