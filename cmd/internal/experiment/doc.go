// Package experiment is the pipeline that joins the library packages into
// runs. One run (a "cell") flows one way through stages, one file each:
//
//	resolve.go   Config.Resolve: model defaults, variant gating, hash rule
//	datasets.go  LoadDataset: built-in or user graph
//	prepare.go   Prepare: union, splits, hop distances, input features
//	msepairs.go  the MSE term's supervision pairs
//	cell.go      Build: model + objective graphs, trainer; Feed; Evaluate
//	fit.go       Run/Resume: the fit loop, checkpoints, the Result
//
// Grids (compare.go, aggregate.go, cells.go) run many cells and summarise
// them; report.go turns saved grids into figures and docs/results.md.
package experiment
