// Package batch makes a mini-batch run's steps: which training positives
// each step takes, and the subgraph around its nodes in a fixed number of
// node slots.
//
// Its input (Input) is the graphs' training positives, the whole graph's
// engine.GraphInput and the batch's shape (size, steps, fan-out, layers,
// seed); it reads nothing of a run's configuration. A Batcher draws the
// positives in a seeded permutation per pass (Positives), sizes its slots
// by a probe of the mean neighbourhood (Allocate, engine.ProbedSlots),
// and stages a step's subgraph and input rows into an engine.SlotInput,
// rewriting the step's pairs and triples to slots (Stage). The negatives
// and the distance term's draws are the caller's (package run), which
// stages the next step while one trains (engine.Prefetch).
package batch
