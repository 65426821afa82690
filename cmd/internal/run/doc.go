// Package run is one training run: from a typed configuration to a Result.
// It conducts: the machines it calls live in packages of their own, each
// taking the few values it reads, never a Config — the memory plan
// (memplan: a Shape in, the Plan out), a mini-batch's steps (batch),
// inference at scale (infer: chunked, layer-wise, sharded), the BFS stage
// part files (stages), the samplers (the hop-distance source in data, the
// τ and validation samples and the pair scoring in eval, the distance
// term's pairs and triples in objective, the skip blocks in features), and
// slot staging and the prefetch (engine.SlotInput, engine.Prefetch). Its
// stages flow one way:
//
//	config.go      Config: every setting of one run, with documented defaults
//	resolve.go     Config.Resolve: model defaults, variant gating, hash rule;
//	               Settings (report.Settings); the Objective a graph resolves to
//	scale.go       --scale: the large-graph defaults, decided once by size, and why
//	datasets.go    LoadDataset: a built-in, generated or user graph; UseFeatures
//	plan.go        the decisions of scale taken once (chunked inference, input
//	               views, float32 embeddings, the spill) and the run's
//	               memplan.Shape; PlanMemory, --spill auto; the capacity
//	               reference's pool of ranking sources
//	prepare.go     Prepare: union, splits, data.Hops, input features, the τ
//	               sample
//	encode.go      the positional encoding, hop-count views of large graphs'
//	               input rows, --skip-polar auto; the BFS stage parts
//	               (stages.WritePart / Read) of ignn prepare and --prepared
//	build.go       Build: model + objective graphs, trainer, samplers, the
//	               batcher (batch.New) or inferer (infer.New); Feed
//	stepbatch.go   a mini-batch step: its draws, staged ahead, then bound
//	evaluate.go    Embeddings, Evaluate with the validation yardsticks,
//	               Faithfulness; the final embeddings kept
//	choose.go      what an evaluation chooses on the validation pairs: the
//	               neighbourhood sketch's share (--sketch-share 0) and the
//	               popularity column's weight (--popularity auto)
//	run.go         Run/Resume: resolve → plan → prepare → build → fit → result; Hooks
//	fit.go         the fit loop, its metric names, checkpoints on the way
//	result.go      Result, Metrics, Result.Select (--select's rules are
//	               eval.SelectRule); the build and machine of a result
//	checkpoint.go  atomic checkpoints, Resume's state
//	embed.go       Embed, EmbedShard, EmbedInductive: a checkpoint's
//	               embeddings (whole, in parts (Built.EmbeddingShard), of a
//	               grown graph)
//
// Many runs (grids, sweeps, shards, reports) live in package grid, which
// imports run; run never imports grid.
package run
