package grid

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
)

// The outcome of a grid: its cells, table rows and files.

// CellMetrics is a job's outcome without timings (so results.json is
// byte-identical whatever the worker count).
type CellMetrics struct {
	Job
	BestEpoch    int     `json:"best_epoch"`
	StoppedEpoch int     `json:"stopped_epoch,omitempty"`
	ValAUC       run.Num `json:"val_auc"`
	TestAUC      run.Num `json:"test_auc"`
	Tau          run.Num `json:"test_kendall_tau"`
	// The selected epoch's validation τ and objective (see run.Metrics),
	// and the objective with λ_BCE = λ_MSE = 1: the yardstick that compares
	// settings of different λ (--select objective in a sweep).
	ValTau       run.Num     `json:"val_kendall_tau,omitempty"`
	ValObjective run.Num     `json:"val_objective,omitempty"`
	ValYardstick run.Num     `json:"val_yardstick,omitempty"`
	Final        run.Metrics `json:"final"`
	// Settings is what the cell resolved to and ran (its epochs, steps,
	// input and distance term), which may differ from the grid's flags.
	Settings report.Settings `json:"settings"`
	valPos   int
	valNeg   int
	// Faithfulness of the final embeddings (see Result.Faithfulness).
	PrecisionAt10  run.Num      `json:"final_precision_at_10"`
	DistortionMean run.Num      `json:"final_distortion_mean"`
	ByDistance     []run.Bucket `json:"final_by_distance,omitempty"`
}

// Comparison is the outcome of a grid.
type Comparison struct {
	Dataset string    `json:"dataset"`
	Task    data.Task `json:"task"`
	// Epochs is what the cells ran (resolved: --scale large runs 10 unless
	// --epochs is given), the flag's value only while no cell has finished;
	// 0 when the cells ran different counts (each cell's settings say).
	Epochs int `json:"epochs"`
	// Settings states the resolved settings every cell shares, and
	// SettingsPerCell those that differ between them (report.Heading).
	Settings        string        `json:"settings,omitempty"`
	SettingsPerCell string        `json:"settings_per_cell,omitempty"`
	Repeats         int           `json:"repeats"`
	HashDim         int           `json:"hash_dim_setting"`
	Selection       string        `json:"selection"`
	Rows            []RowJSON     `json:"rows"`
	Chosen          []Job         `json:"chosen,omitempty"` // sweep: selected settings per model/variant (seed 0)
	Cells           []CellMetrics `json:"cells"`
	// Inputs are the reference rows of compare --positions: each
	// positional input's own scores, untrained (InputReference).
	Inputs []InputRow `json:"inputs,omitempty"`
	// Heuristics are the link task's common-neighbour reference rows
	// (CompareConfig.Heuristics).
	Heuristics []HeuristicRow `json:"heuristics,omitempty"`
	Failures   []Failure      `json:"failures,omitempty"`
	// Notes name what the table's numbers alone do not say: models whose
	// rows of one variant agree (report.Agreement), a (capacity) row far
	// below the models' (report.CapacityShort).
	Notes []string `json:"notes,omitempty"`
	// ShardDone of ShardCells cells of this shard are finished (shard runs
	// only; Rows and Cells are then empty).
	ShardDone  int            `json:"shard_done,omitempty"`
	ShardCells int            `json:"shard_cells,omitempty"`
	Provenance GridProvenance `json:"provenance"`
	rows       []report.Row
}

// RowJSON is a table row in results.json.
type RowJSON struct {
	Model     string     `json:"model"`
	Variant   string     `json:"variant"`
	Runs      int        `json:"runs"`
	AUCMean   run.Num    `json:"auc_mean"`
	AUCStd    run.Num    `json:"auc_std"`
	TauMean   run.Num    `json:"tau_mean"`
	TauStd    run.Num    `json:"tau_std"`
	FAUCMean  run.Num    `json:"final_auc_mean"`
	FAUCStd   run.Num    `json:"final_auc_std"`
	FTauMean  run.Num    `json:"final_tau_mean"`
	FTauStd   run.Num    `json:"final_tau_std"`
	BestTau   bool       `json:"best_tau"`
	AUCCI     [2]run.Num `json:"auc_ci95"`
	TauCI     [2]run.Num `json:"tau_ci95"`
	FAUCCI    [2]run.Num `json:"final_auc_ci95"`
	FTauCI    [2]run.Num `json:"final_tau_ci95"`
	VsBase    *VsBase    `json:"vs_base,omitempty"`
	FP10Mean  run.Num    `json:"final_precision_at_10_mean"`
	FP10Std   run.Num    `json:"final_precision_at_10_std"`
	FAPMean   run.Num    `json:"final_ap_mean"`
	LR        float64    `json:"lr"`
	LambdaBCE float64    `json:"lambda_bce"`
	LambdaMSE float64    `json:"lambda_mse"`
}

// Heading is the table's title: dataset, task, the settings every cell
// resolved to, then seeds (as given), and on a second line what the cells
// resolved differently.
func (c *Comparison) Heading(seeds string) string {
	h := fmt.Sprintf("%s, %s task", c.Dataset, c.Task)
	switch {
	case c.Settings != "":
		h += ", " + c.Settings
	case c.Epochs > 0:
		h += fmt.Sprintf(", %d epochs", c.Epochs)
	}
	h += ", " + seeds
	if c.SettingsPerCell != "" {
		h += "\n" + c.SettingsPerCell
	}
	return h
}

// TableRows returns the table rows.
func (c *Comparison) TableRows() []report.Row { return c.rows }

// NotesText is the notes as the text and markdown tables end with.
func (c *Comparison) NotesText() string { return report.NotesText(c.Notes) }

// Write stores results.json, results.csv and results.md under dir.
func (c *Comparison) Write(dir string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	files := map[string]string{
		"results.json": string(b) + "\n",
		"results.csv":  report.CSV(c.rows),
		"results.md":   c.Heading(fmt.Sprintf("%d seeds", c.Repeats)) + "\n\n" + report.Markdown(c.rows) + "\n" + report.Legend + "\n\n" + c.NotesText() + c.Provenance.Footer() + "\n",
	}
	for _, name := range []string{"results.json", "results.csv", "results.md"} {
		if err := data.WriteFileAtomic(filepath.Join(dir, name), []byte(files[name])); err != nil {
			return err
		}
	}
	return nil
}
