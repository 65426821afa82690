// Package grid runs and summarises many training runs: the cells of a
// comparison or sweep, each one a run.Run. It owns:
//
//	jobs.go            Job and SubGrid: the cells a grid means
//	cells.go           a finished cell's file, reused only on an exact match
//	compare.go         Compare: the cells in parallel, resumable, sharded
//	shard.go           Shard, markers and CellStatus for Slurm arrays
//	failures.go        failed cells, listed under the table
//	aggregate.go       per-row means, intervals and paired tests vs base
//	comparison.go      Comparison: the grid's results as tables and JSON
//	gridprovenance.go  the builds and machines a grid's cells came from
//	inputref.go        the (input) reference rows: the raw input's AUC and τ
//	capacity.go        the (capacity) row: a free table on the runs' objective
//	ablation.go        the (skip path alone) row: the recipe minus its message passing
//	heuristic.go       the (common neighbours), (adamic-adar), (preferential attachment) rows
//	plots.go           AUC vs τ and τ vs λ figures
//	curveplots.go      τ and validation AUC against epoch
//	resultsdoc.go      docs/results.md from saved comparisons
//
// grid imports run, never the reverse.
package grid
