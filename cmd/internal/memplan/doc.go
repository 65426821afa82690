// Package memplan estimates a run's peak memory before any of it is built.
//
// Its input is a Shape: the run's sizes (nodes, edges, each graph's nodes,
// widths, pair and source counts, a mini-batch's node slots) and the
// decisions its caller has already taken (mini-batches, chunked or
// layer-wise inference, input views, float32 embeddings, the spill).
// Package run decides them once, from a resolved configuration, and the
// run follows the same decisions; memplan adds up what they imply.
//
//	shape.go     Shape, and what follows from it (layer-wise, τ queries, an evaluation's pairs)
//	estimate.go  Estimate: the parts, each in the phase and step it is live in; StagePart (ignn prepare)
//	train.go     the training phase's parts: activations, inference, embeddings, pair products
//	costs.go     the per-unit costs, calibrated against measured peak RSS
//	plan.go      Plan and MemPart: phases, steps, the total, Check against --max-memory
//	slots.go     the plan's probe of a mini-batch's node slots (engine.ProbedSlots sizes them)
//	spill.go     what a run spills and the disk it needs; the --spill auto directory
//	bytes.go     FormatBytes, ParseBytes, DefaultMaxMemory
package memplan
