// Package models holds the GNN layers ignn trains, one file per
// architecture, each registered by name so `--model NAME` finds it.
//
// A model maps an engine.GraphInput to L2-normalised node embeddings inside
// an engine.Builder; parameters come from the builder's store, so the same
// model builds both the training and the evaluation graph.
package models
