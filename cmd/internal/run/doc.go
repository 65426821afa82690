// Package run is one training run (a "cell"): from a typed configuration to
// a Result. It joins the library packages in stages that flow one way, one
// file each:
//
//	config.go      Config: every setting of one run, with documented defaults
//	resolve.go     Config.Resolve: model defaults, variant gating, hash rule
//	scale.go       --scale: the large-graph defaults, decided once by size
//	datasets.go    LoadDataset: built-in or user graph
//	prepare.go     Prepare: union, splits, hop distances, input features
//	distances.go   the fixed τ sample and BFS rows on the sampled path
//	msepairs.go    the MSE term's supervision pairs
//	ranktriples.go the ranking term's triples (--distance-loss rank)
//	valsample.go   the validation pair sample: val τ and objective (issue 29)
//	cell.go        Build: model + objective graphs, trainer; Feed; Evaluate
//	cellbatch.go   Cell.Batch: one mini-batch step's inputs
//	batch.go       the mini-batch scheme: positives per pass, batch inputs
//	subgraph.go    one batch's nodes (seeds + L-hop neighbourhood) and edges
//	fit.go         Run/Resume: the fit loop, checkpoints, the Result
//	selection.go   --select: the rules that pick the reported epoch
//	result.go      Result, Metrics, Faithfulness: what a run reports
//	checkpoint.go  atomic checkpoints, Resume's state, Embed
//	embed.go       EmbedInductive: embeddings of a grown graph
//	memplan.go     PlanMemory: a run's peak memory, before it is built
//	provenance.go  the build and machine that produced a result
//	jsonfile.go    ReadJSONFile: result files that do not parse, named as corrupt
//
// Many runs (grids, sweeps, shards, reports) live in package grid, which
// imports run; run never imports grid.
package run
