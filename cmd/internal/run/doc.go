// Package run is one training run: from a typed configuration to a Result.
// It is orchestration only: the samplers it calls live below it (the
// hop-distance source in data, the τ and validation samples in eval, the
// distance term's pairs and triples in objective, the mini-batch subgraph
// in engine, the skip blocks in features), each taking the few values it
// reads. Its stages flow one way, one file each:
//
//	config.go      Config: every setting of one run, with documented defaults
//	resolve.go     Config.Resolve: model defaults, variant gating, hash rule
//	scale.go       --scale: the large-graph defaults, decided once by size; Settings
//	datasets.go    LoadDataset: built-in or user graph
//	memplan.go     PlanMemory: a run's peak memory, before it is built
//	planslots.go   the plan's probe of a batch's node slots (and layer-wise
//	               inference)
//	prepare.go     Prepare: union, splits, data.Hops, input features, the τ
//	               sample
//	encode.go      the positional encoding, hop-count views of large
//	               graphs' input rows, the --skip-polar auto choice
//	build.go       Build: model + objective graphs, trainer, samplers; Feed
//	evaluate.go    Embeddings, Evaluate with the validation yardsticks,
//	               Faithfulness, EmbeddingShard (sharded embedding)
//	infer.go       chunked inference from 2¹⁸ nodes; a shard's chunks
//	chunkgrow.go   the chunks' geometry: breadth-first order, balls
//	layerwise.go   layer-wise inference where one node's neighbourhood
//	               outgrows the slots (a small world's): stage by stage
//	batch.go       the mini-batch scheme: positives per pass, one step's
//	               inputs, the slots (capped for small worlds)
//	run.go         Run/Resume: resolve → plan → prepare → build → fit → result
//	fit.go         the fit loop, its metric names, checkpoints on the way
//	selection.go   --select: the rules that pick the reported epoch
//	result.go      Result, Metrics, Hooks; the build and machine of a result
//	checkpoint.go  atomic checkpoints, Resume's state
//	embed.go       Embed, EmbedShard, EmbedInductive: a checkpoint's
//	               embeddings (whole, in parts, of a grown graph)
//	jsonfile.go    ReadJSONFile: result files that do not parse, named as corrupt
//
// Many runs (grids, sweeps, shards, reports) live in package grid, which
// imports run; run never imports grid.
package run
