package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
)

// batchFlags shape mini-batch training (run.Config.BatchSize and kin).
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "batch-size", Value: 0, Usage: "mini-batches: training positives per optimisation step, each step on the subgraph of their nodes' neighbourhoods with as many negatives and the distance term's triples or pairs (0 = whole-graph steps; GCN, SAGE, GIN, GraphConv)"},
		&cli.IntFlag{Name: "batch-steps", Value: 0, Usage: "mini-batches: steps per epoch (0 = a full pass over the training positives)"},
		&cli.IntFlag{Name: "batch-fanout", Value: 0, Usage: "mini-batches: neighbours drawn per node and hop (0 = every neighbour: seeds see exactly what the whole graph gives them)"},
		&cli.IntFlag{Name: "batch-nodes", Value: 0, Usage: fmt.Sprintf("mini-batches: node slots of a batch, the training graph's size (0 = %d or the graph's nodes if fewer); a neighbourhood beyond it is cut, with a warning", run.BatchNodesAuto)},
	}
}

func setBatch(c *cli.Context, cfg *run.Config) {
	cfg.BatchSize, cfg.BatchSteps = c.Int("batch-size"), c.Int("batch-steps")
	cfg.BatchFanout, cfg.BatchNodes = c.Int("batch-fanout"), c.Int("batch-nodes")
}
