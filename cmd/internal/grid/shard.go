package grid

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/models"
)

// Shard selects part I of N of a grid (N = 0: the whole grid).
type Shard struct{ I, N int }

// ParseShard reads "I/N" (0 ≤ I < N) or "auto": SLURM_ARRAY_TASK_ID minus
// SLURM_ARRAY_TASK_MIN (default 0) of SLURM_ARRAY_TASK_COUNT, or
// JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) of shards (which must then
// be given).
func ParseShard(s string, shards int) (Shard, error) {
	if s == "auto" {
		if id := os.Getenv("SLURM_ARRAY_TASK_ID"); id != "" {
			i, err1 := strconv.Atoi(id)
			n, err2 := strconv.Atoi(os.Getenv("SLURM_ARRAY_TASK_COUNT"))
			lo := 0
			if m := os.Getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
				lo, _ = strconv.Atoi(m)
			}
			if err1 != nil || err2 != nil {
				return Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID %q / SLURM_ARRAY_TASK_COUNT %q are not numbers", id, os.Getenv("SLURM_ARRAY_TASK_COUNT"))
			}
			return checkShard(Shard{i - lo, n})
		}
		if id := os.Getenv("JOB_COMPLETION_INDEX"); id != "" {
			i, err := strconv.Atoi(id)
			if err != nil || shards < 1 {
				return Shard{}, fmt.Errorf("--shard auto with JOB_COMPLETION_INDEX %q needs --shards N", id)
			}
			return checkShard(Shard{i, shards})
		}
		return Shard{}, fmt.Errorf("--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set")
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("--shard %q: want I/N (e.g. 0/4) or auto", s)
	}
	return checkShard(Shard{i, n})
}

func checkShard(s Shard) (Shard, error) {
	if s.N < 1 || s.I < 0 || s.I >= s.N {
		return Shard{}, fmt.Errorf("--shard %d/%d: want 0 ≤ I < N", s.I, s.N)
	}
	return s, nil
}

// jobCost is a job's relative cost, for even shards: the model's
// registered cost (models.Entry.Cost: P-GNN about 10× GCN, GAT 1.3×), the
// MSE variants 1.5×; all scale with epochs.
func (cc CompareConfig) jobCost(j Job) float64 {
	c := 1.0
	if e, err := models.Lookup(j.Model); err == nil && e.Cost > 0 {
		c = e.Cost
	}
	if j.Variant.MSE() {
		c *= 1.5
	}
	switch {
	case j.AblationSketch:
		c *= AblationSketchCost
	case j.IsAblation():
		c *= AblationCost
	}
	return c * float64(cc.Base.Epochs)
}

// inShard reports, for each job, whether it belongs to s: jobs are ordered
// by decreasing cost (ties in grid order) and dealt round-robin, so every
// shard gets a similar mix of expensive and cheap cells. The assignment
// depends on the grid alone.
func (cc CompareConfig) inShard(jobs []Job, s Shard) []bool {
	out := make([]bool, len(jobs))
	if s.N == 0 {
		for i := range out {
			out[i] = true
		}
		return out
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cc.jobCost(jobs[order[a]]) > cc.jobCost(jobs[order[b]]) })
	for k, i := range order {
		out[i] = k%s.N == s.I
	}
	return out
}

// marker records the process running a cell (cells/KEY.running).
type marker struct {
	Host string `json:"host"`
	PID  int    `json:"pid"`
}

func (cc CompareConfig) markerPath(j Job) string {
	return filepath.Join(cc.Out, "cells", j.Key()+".running")
}

func (cc CompareConfig) mark(j Job) {
	host, _ := os.Hostname()
	WriteJSON(cc.markerPath(j), marker{Host: host, PID: os.Getpid()})
}

func (cc CompareConfig) unmark(j Job) { os.Remove(cc.markerPath(j)) }

// CellStatus is one cell of Status.
type CellStatus struct {
	Key   string `json:"cell"`
	State string `json:"state"` // finished, corrupt, running, stale, failed, missing
	Note  string `json:"note,omitempty"`
}

// Status lists every cell of the grid under Out: finished (a cell file),
// corrupt (a cell file that does not parse or is not a finished cell: it
// runs again),
// failed (a failure file), running (a marker whose process is alive, or on
// another host), stale (a marker on this host whose process is gone: the
// task died; the cell runs again on the next run), or missing.
func (cc CompareConfig) Status() ([]CellStatus, error) {
	if cc.Out == "" {
		return nil, fmt.Errorf("--status needs --out")
	}
	host, _ := os.Hostname()
	var out []CellStatus
	for _, j := range cc.Jobs() {
		st := CellStatus{Key: j.Key(), State: "missing"}
		var r run.Result
		var corrupt *data.CorruptFileError
		if err := readCell(cc.cellPath(j), &r); err == nil {
			st.State = "finished"
		} else if errors.As(err, &corrupt) {
			st.State, st.Note = "corrupt", corrupt.Problem+"; runs again on the next compare"
		} else if f, ok := cc.loadFailure(j); ok {
			st.State, st.Note = "failed", f.Error
		} else if b, err := os.ReadFile(cc.markerPath(j)); err == nil {
			var m marker
			json.Unmarshal(b, &m)
			st.State, st.Note = "running", fmt.Sprintf("host %s pid %d", m.Host, m.PID)
			if m.Host == host && !alive(m.PID) {
				st.State = "stale"
				st.Note += " (process gone)"
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// PeakMemory is the largest memory plan among the grid's cells (datasets
// loaded once each), for a cluster job's memory request.
func (cc CompareConfig) PeakMemory() (int64, error) {
	jobs := cc.Jobs()
	want, err := cc.expectations(jobs)
	if err != nil {
		return 0, err
	}
	cache := map[string]*data.Dataset{}
	var peak int64
	for i := range jobs {
		cfg := want[i].cfg
		key := cfg.Dataset + "\x00" + strconv.FormatUint(cfg.Seed, 10)
		ds, ok := cache[key]
		if !ok {
			if ds, err = run.LoadDataset(cfg); err != nil {
				return 0, err
			}
			cache[key] = ds
		}
		peak = max(peak, run.PlanMemory(cfg, ds).Total)
	}
	return peak, nil
}

// ETACost is j's relative cost for an ETA: jobCost at the epochs j itself
// runs (a capacity cell's CapacityEpochs steps, not the grid's epochs:
// `make run`'s ETA said 4 s with 34 s of capacity cells to go).
func (cc CompareConfig) ETACost(j Job) float64 {
	if j.IsCapacity() {
		return cc.jobCost(j) / float64(max(1, cc.Base.Epochs)) * CapacityEpochs
	}
	return cc.jobCost(j)
}
