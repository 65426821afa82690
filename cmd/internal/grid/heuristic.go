package grid

import (
	"fmt"
	"slices"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
)

// The heuristic reference rows of a link-task table (CompareConfig.
// Heuristics): per seed, the heuristics' scores on that seed's own
// split — its test positives against its test negatives, counted on its
// message-passing edges — as the trained cells are scored. Nothing is
// trained, so they cost a load and a split per seed.

// HeuristicReference scores every eval.Heuristics on the split a run of
// cfg would make: the same dataset (the seed's, for a generated graph) and
// the same split stream, so the pairs are the run's own pairs.
func HeuristicReference(cfg run.Config) ([]eval.Scores, error) {
	if cfg.Task != data.TaskLink {
		return nil, fmt.Errorf("the heuristic rows score link prediction; the task is %s", cfg.Task)
	}
	ds, err := run.LoadDataset(cfg)
	if err != nil {
		return nil, err
	}
	splits, _, _, err := data.NewSplits(ds, cfg.Task, engine.Stream(cfg.Seed, "split"))
	if err != nil {
		return nil, err
	}
	out := make([]eval.Scores, len(eval.Heuristics))
	for k, h := range eval.Heuristics {
		out[k] = eval.HeuristicMetrics(h, splits)
	}
	return out, nil
}

// HeuristicRow is a heuristic's reference row over seeds (results.json).
type HeuristicRow struct {
	Heuristic  string     `json:"heuristic"`
	Runs       int        `json:"runs"`
	AUCMean    run.Num    `json:"auc_mean"`
	AUCStd     run.Num    `json:"auc_std"`
	AUCCI      [2]run.Num `json:"auc_ci95"`
	APMean     run.Num    `json:"ap_mean"`
	Hits20Mean run.Num    `json:"hits_at_20_mean"`
	Hits50Mean run.Num    `json:"hits_at_50_mean"`
	// AUCBySeed is the test AUC for each seed the cells ran, ascending:
	// what a paired comparison with the trained rows needs.
	AUCBySeed []run.Num `json:"auc_by_seed"`
}

// seeds lists the seeds of jobs (ascending; the capacity cells' are the
// others'), or 1 … max(1, Repeats) when there is no job.
func (cc CompareConfig) seeds(jobs []Job) []uint64 {
	var out []uint64
	for _, j := range jobs {
		if !slices.Contains(out, j.Seed) {
			out = append(out, j.Seed)
		}
	}
	if len(out) == 0 {
		for s := uint64(1); s <= uint64(max(1, cc.Repeats)); s++ {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// heuristicReferences scores the heuristics on every seed of jobs.
func (cc CompareConfig) heuristicReferences(jobs []Job) ([]HeuristicRow, []report.Row, error) {
	seeds := cc.seeds(jobs)
	by := make([][]eval.Scores, len(eval.Heuristics))
	for _, seed := range seeds {
		cfg := cc.Base
		cfg.Seed = seed
		s, err := HeuristicReference(cfg)
		if err != nil {
			return nil, nil, fmt.Errorf("heuristic reference rows: %w", err)
		}
		for k := range s {
			by[k] = append(by[k], s[k])
		}
	}
	var rows []HeuristicRow
	var trows []report.Row
	for k, h := range eval.Heuristics {
		var auc, ap, h20, h50 []float64
		var bySeed []run.Num
		for _, s := range by[k] {
			auc, ap = append(auc, s.TestAUC), append(ap, s.TestAP)
			h20, h50 = append(h20, s.TestHits20), append(h50, s.TestHits50)
			bySeed = append(bySeed, run.Num(s.TestAUC))
		}
		a, p := eval.Summarise(auc), eval.Summarise(ap)
		rows = append(rows, HeuristicRow{Heuristic: string(h), Runs: len(auc), AUCMean: run.Num(a.Mean), AUCStd: run.Num(a.Std), AUCCI: ci(a),
			APMean: run.Num(p.Mean), Hits20Mean: run.Num(eval.Summarise(h20).Mean), Hits50Mean: run.Num(eval.Summarise(h50).Mean), AUCBySeed: bySeed})
		nan := eval.Summarise(nil)
		trows = append(trows, report.Row{Model: "(" + string(h) + ")", Variant: "heuristic", Runs: len(auc), AUC: a, Tau: nan, FinalAUC: a, FinalTau: nan, FinalP10: nan, FinalAP: p, NoTau: true})
	}
	return rows, trows, nil
}
