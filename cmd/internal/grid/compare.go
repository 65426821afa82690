package grid

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// CompareConfig is a grid: models × variants × seeds 1..Repeats, optionally
// × the sweep's learning rates and λ pairs.
type CompareConfig struct {
	Base     run.Config
	Models   []string
	Variants []run.Variant
	Repeats  int
	Workers  int
	Out      string // "" = keep nothing on disk
	Sweep    bool
	// Grids, when set, replace Models × Variants × Repeats by the join of
	// these blocks (grid files).
	Grids []SubGrid
	// Shard restricts the run to its part of the grid (Shard.N = 0: all);
	// the result then holds only that part's cells and no table.
	Shard Shard
	// RetryFailed runs cells whose earlier attempt failed again (otherwise
	// they stay listed as failed).
	RetryFailed bool
	// Positions lists the positional inputs the hash and both variants run
	// with, one row each ("hash", "lap:16", …; empty: Base.Position only).
	// When set, the table gains a reference row per input: the raw input's
	// own AUC and τ, untrained (InputReference).
	Positions []features.Position
	// InputsOnly scores the Positions' reference rows alone: no cell is
	// trained (the question "how faithful is this input already?" on a
	// graph where one cell costs an hour).
	InputsOnly bool
	// Select is the rule that picks each cell's reported epoch and a
	// sweep's setting ("" = eval.SelectAUC). It is applied to the cells'
	// histories when the table is made, so it is not part of a cell: the
	// same cells serve every rule.
	Select eval.SelectRule
	// Capacity adds a (capacity) row: per seed, a free embedding table of
	// the runs' output width trained on their objective (CapacityConfig:
	// the first model's BCE and distance term at its weights), scored on the
	// same splits and τ pairs — a point on the joint frontier of link AUC
	// and τ that cosine similarity in that many dimensions reaches.
	Capacity bool
	// Ablation, a model's name (AblationFor), adds a (skip path alone)
	// row: per seed and positional input, the both variant of that model
	// with --skip-alone, the recipe without its message passing ("": none).
	Ablation string
	// AblationSketch, with Ablation, is the neighbourhood sketch width of
	// the runs' both cells (run.RecipeSketch): above 0 it adds a (skip path
	// + sketch) row, the same cells keeping the sketch — the recipe without
	// its trained layers.
	AblationSketch int
	// Objective is the capacity cells' objective (CapacityObjective); Compare sets it.
	Objective *run.Objective
	// Heuristics adds, on the link task, (common neighbours), (adamic-adar)
	// and (preferential attachment) rows: the heuristics' scores of each seed's own test
	// pairs on its message-passing edges (HeuristicReference).
	Heuristics bool
	LRs        []float64 // sweep grid (defaults: 1e-4, 1e-3, 1e-2)
	Lambdas    []float64 // sweep grid for λ_BCE and λ_MSE (defaults: 0, 0.1, 1, 10)
}

// CompareHooks observe a grid.
type CompareHooks struct {
	Start func(total, done int)      // before running, with the cells already on disk
	Done  func(j Job, r *run.Result) // after each cell that ran
	Warn  func(j Job, msg string)
	Note  func(j Job, msg string) // run.Hooks.Note; nil: Warn gets the notes
	// Todo, before Start, gets the cells this process will run (for an ETA
	// weighted by their costs, ETACost).
	Todo func(jobs []Job)
}

// cellFile is what each cell writes: its full result (with timings).
func (cc CompareConfig) cellPath(j Job) string {
	path := filepath.Join(cc.Out, "cells", j.Key()+".json")
	if old := filepath.Join(cc.Out, "cells", j.oldKey()+".json"); old != path {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			if _, err := os.Stat(old); err == nil {
				return old // finished before cells named their distance term (issue 66)
			}
		}
	}
	return path
}

// Compare runs every job not already finished under Out (resume), Workers
// at a time, and aggregates. Cells are deterministic, so the aggregate does
// not depend on Workers or on interruptions.
func Compare(ctx context.Context, cc CompareConfig, hooks CompareHooks) (*Comparison, error) {
	if cc.Repeats < 1 && len(cc.Grids) == 0 {
		return nil, fmt.Errorf("--repeats must be ≥ 1, got %d", cc.Repeats)
	}
	if cc.Workers < 1 {
		cc.Workers = 1
	}
	if cc.Capacity && cc.Objective == nil {
		o, err := cc.CapacityObjective()
		if err != nil {
			return nil, err
		}
		cc.Objective = &o
	}
	jobs := cc.Jobs()
	if cc.InputsOnly {
		switch {
		case len(cc.Positions) == 0:
			return nil, fmt.Errorf("--inputs-only scores the inputs --positions names, and none is given (e.g. --positions landmark:64)")
		case cc.Shard.N > 0:
			return nil, fmt.Errorf("--inputs-only trains no cell, so there is nothing to shard: run it without --shard")
		}
		jobs = nil
	}
	for _, j := range jobs {
		if err := cc.config(j).Validate(); err != nil {
			return nil, err
		}
	}
	if cc.Out != "" {
		if err := os.MkdirAll(filepath.Join(cc.Out, "cells"), 0o755); err != nil {
			return nil, fmt.Errorf("cannot write --out: %w", err)
		}
	}
	results := make([]*run.Result, len(jobs))
	var todo []int
	var failures []Failure
	mine := cc.inShard(jobs, cc.Shard)
	if cc.Out != "" {
		want, err := cc.expectations(jobs)
		if err != nil {
			return nil, err
		}
		for i, j := range jobs {
			r, corrupt, err := cc.loadCell(j, want[i])
			if err != nil {
				return nil, err
			}
			if corrupt != nil && mine[i] && hooks.Warn != nil {
				msg := corrupt.Error() + "; it is not a finished cell: running it again"
				if strings.Contains(corrupt.Problem, "not a finished cell") {
					msg = corrupt.Error() + "; running it again"
				}
				hooks.Warn(j, msg)
			}
			if r != nil {
				results[i] = r
				continue
			}
			if !mine[i] {
				continue
			}
			if f, ok := cc.loadFailure(j); ok {
				if !cc.RetryFailed {
					failures = append(failures, f)
					continue
				}
				os.Remove(cc.failurePath(j))
			}
			todo = append(todo, i)
		}
		if err := WriteJSON(filepath.Join(cc.Out, "config.json"), cc.Base); err != nil {
			return nil, err
		}
	} else {
		for i := range jobs {
			if mine[i] {
				todo = append(todo, i)
			}
		}
	}
	if hooks.Todo != nil {
		js := make([]Job, len(todo))
		for k, i := range todo {
			js[k] = jobs[i]
		}
		hooks.Todo(js)
	}
	if hooks.Start != nil {
		hooks.Start(len(jobs), len(jobs)-len(todo))
	}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	ch := make(chan int)
	for w := 0; w < cc.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				j := jobs[i]
				if cc.Out != "" {
					cc.mark(j)
				}
				rh := run.Hooks{Warn: func(msg string) {
					if hooks.Warn != nil {
						hooks.Warn(j, msg)
					}
				}}
				if hooks.Note != nil {
					rh.Note = func(msg string) { hooks.Note(j, msg) }
				}
				r, err := run.Run(ctx, cc.config(j), rh)
				if err == nil && cc.Out != "" {
					var b []byte
					if b, err = json.MarshalIndent(r, "", "  "); err == nil {
						err = data.WriteFileAtomic(cc.cellPath(j), append(b, '\n'))
					}
				}
				var f *Failure
				if err != nil && ctx.Err() == nil {
					// A failed cell (divergence, memory plan, a crash) is
					// recorded and the grid goes on.
					f = &Failure{Job: j, Error: err.Error()}
					if cc.Out != "" {
						err = WriteJSON(cc.failurePath(j), f)
					} else {
						err = nil
					}
				}
				if cc.Out != "" {
					cc.unmark(j)
				}
				mu.Lock()
				if f != nil {
					failures = append(failures, *f)
				}
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", j.Key(), err)
				}
				results[i] = r
				if err == nil && hooks.Done != nil {
					hooks.Done(j, r)
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		ch <- i
	}
	close(ch)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		// An interrupted cell reports "nothing kept" for itself; the grid's
		// finished cells are kept all the same.
		if cc.Out == "" {
			return nil, fmt.Errorf("comparison interrupted: %w; no --out, so nothing was kept", err)
		}
		return nil, fmt.Errorf("comparison interrupted: %w; finished cells are kept under %s — re-run the same command to resume", err, cc.Out)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if cc.Shard.N > 0 {
		// One shard's part: no table until every shard is done.
		done := 0
		for i, r := range results {
			if r != nil && mine[i] {
				done++
			}
		}
		return &Comparison{Dataset: cc.Base.Dataset, Task: cc.Base.Task, Epochs: cc.Base.Epochs, Repeats: cc.Repeats,
			ShardDone: done, ShardCells: countTrue(mine), Failures: failures}, nil
	}
	c := aggregate(cc, jobs, results)
	if cc.InputsOnly { // the table's build and machine are this process's; nothing trained
		c.Provenance = gridProvenance([]*run.Result{{Provenance: run.CurrentProvenance()}})
		c.Epochs, c.Settings = 0, "the inputs alone, untrained"
	}
	if len(cc.Positions) > 0 {
		in, rows, err := cc.inputReferences()
		if err != nil {
			return nil, err
		}
		c.Inputs, c.rows = in, append(c.rows, rows...)
	}
	if cc.Heuristics && cc.Base.Task == data.TaskLink {
		h, rows, err := cc.heuristicReferences(jobs)
		if err != nil {
			return nil, err
		}
		c.Heuristics, c.rows = h, append(c.rows, rows...)
	}
	sort.Slice(failures, func(a, b int) bool { return failures[a].Job.Key() < failures[b].Job.Key() })
	c.Failures = failures
	return c, nil
}
