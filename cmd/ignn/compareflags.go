package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
)

// The flags of compare and sweep.

func compareFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "models", Value: "gcn,sage,gat,gin,pgnn-f,pgnn-e", Usage: "comma-separated models (default: the paper's six)"},
		&cli.StringFlag{Name: "variants", Value: "base,hash,mse,both", Usage: "comma-separated variants"},
		&cli.StringFlag{Name: "positions", Usage: "comma-separated positional inputs for the hash and both variants (hash, lap:K, rw:K, landmark:L), one row each, plus a reference row per input: its own AUC and τ, untrained (default: the hash only, no reference rows)"},
		&cli.BoolFlag{Name: "inputs-only", Usage: "with --positions: only the reference rows (each input's own AUC and τ, untrained, seeds 1..R); no model is trained"},
		&cli.IntFlag{Name: "repeats", Value: 3, Usage: "seeds 1..R per cell"},
		&cli.BoolFlag{Name: "capacity", Value: true, Usage: fmt.Sprintf("add a (capacity) row: per seed, a free embedding table of the output width trained on the runs' own objective — the first model's BCE and distance term at their weights, at most %d ranking triples a step (%d whole-graph steps at lr %g) — on the same splits and τ pairs: a point of the link-AUC/τ frontier that cosine similarity in that many dimensions reaches, up to %d nodes (on larger graphs the steps are too few: no row unless --capacity is given, and then with thinned BFS draws); --capacity=false: none; sweep: none", run.CapacityTriples, run.CapacityEpochs, run.CapacityLR, run.CapacityFullNodes)},
		&cli.BoolFlag{Name: "heuristics", Value: true, Usage: "on the link task, add a (common neighbours) and an (adamic-adar) row: each seed's own test pairs scored by the heuristic on its message-passing edges (AUC, AP; τ blank), nothing trained; --heuristics=false: none"},
		&cli.IntFlag{Name: "workers", Value: 1, Usage: "cells run in parallel (results do not depend on it)"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, csv or json"},
		&cli.StringFlag{Name: "out", Usage: "directory for results.{json,csv,md} and per-cell files; re-running resumes"},
		&cli.BoolFlag{Name: "sweep", Usage: "per cell, select lr and λ by validation AUC (the paper's protocol)"},
		&cli.BoolFlag{Name: "quiet", Usage: "no progress or notes on stderr (warnings stay)"},
		&cli.BoolFlag{Name: "fresh", Usage: "discard the cells and results already in --out and start over"},
		&cli.BoolFlag{Name: "retry-failed", Usage: "run the cells whose earlier attempt failed again"},
		&cli.StringFlag{Name: "grid", Usage: "a YAML grid file (settings + sub-grids whose cells are joined); see scripts/run.grid.yaml"},
		&cli.BoolFlag{Name: "dry-run", Usage: "list the cells and print the grid as a grid file, run nothing"},
		&cli.StringFlag{Name: "shard", Usage: "run only part I/N of the grid (cost-balanced round robin), or auto: from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX; a plain compare on the same --out then builds the table"},
		&cli.IntFlag{Name: "shards", Usage: "with --shard auto under a Kubernetes Indexed Job: the number of shards"},
		&cli.BoolFlag{Name: "slurm", Usage: "write --out/ignn.sbatch, an array job of --shards tasks (default 4) each running its shard, and submit it with sbatch"},
		&cli.StringSliceFlag{Name: "slurm-arg", Usage: "an extra #SBATCH line for --slurm (repeatable), e.g. --slurm-arg=--partition=gpu"},
		&cli.BoolFlag{Name: "wait", Usage: "with --slurm: wait for the job, then print the table"},
		&cli.BoolFlag{Name: "status", Usage: "list the grid's cells in --out as finished, running (host, pid), stale, failed or missing, run nothing"},
	}
}

// gridFlags are runFlags without the per-run ones a grid sets itself
// (--model, --variant, --seed, --position: use --models, --variants,
// --repeats, --positions).
func gridFlags() []cli.Flag {
	var out []cli.Flag
	for _, f := range runFlags() {
		switch f.Names()[0] {
		case "model", "variant", "seed", "position":
			continue
		}
		out = append(out, f)
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
