package grid

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
)

// A cell's identity is its whole resolved configuration plus the
// fingerprint of the data it ran on: a finished cell file is reused only
// when both match what the current grid would run, so a rerun with another
// task, dataset, epoch count or any other setting never reuses old numbers.

// expectation is what a job's finished cell must carry to be reused.
type expectation struct {
	cfg         run.Config
	fingerprint string
}

// expectations resolves every job against its dataset (loaded once per
// distinct dataset; Communities is generated per seed).
func (cc CompareConfig) expectations(jobs []Job) ([]expectation, error) {
	cache := map[string]*data.Dataset{}
	fps := map[string]string{}
	out := make([]expectation, len(jobs))
	for i, j := range jobs {
		cfg := cc.config(j)
		key := strings.Join([]string{cfg.Dataset, cfg.DataDir, cfg.Labels, cfg.Features, cfg.GraphIndex}, "\x00")
		if cfg.Dataset == "communities" || data.IsGenerated(cfg.Dataset) {
			key += fmt.Sprintf("\x00%d", cfg.Seed)
		}
		ds, ok := cache[key]
		if !ok {
			var err error
			if ds, err = run.LoadDataset(cfg); err != nil {
				return nil, err
			}
			cache[key] = ds
		}
		r, err := cfg.Resolve(ds)
		if err != nil {
			return nil, err
		}
		fkey := key + "\x00" + r.Features // the input the run resolved to (run.UseFeatures)
		if _, ok := fps[fkey]; !ok {
			fps[fkey] = run.Fingerprint(run.UseFeatures(ds, r))
		}
		out[i] = expectation{cfg: r, fingerprint: fps[fkey]}
	}
	return out, nil
}

// loadCell returns the finished cell of j; nil when there is none, or when
// its file is corrupt (empty, truncated, not JSON: then corrupt says so and
// the cell runs again); and an error when it exists but was made with
// another configuration or other data.
func (cc CompareConfig) loadCell(j Job, want expectation) (r *run.Result, corrupt *data.CorruptFileError, err error) {
	r = new(run.Result)
	if err := readCell(cc.cellPath(j), r); err != nil {
		errors.As(err, &corrupt)
		return nil, corrupt, nil
	}
	diff := configDiff(r.Config, want.cfg)
	if r.Fingerprint != want.fingerprint {
		diff = append(diff, "dataset content (fingerprint)")
	}
	if len(diff) > 0 {
		return nil, nil, &StaleOutError{Dir: cc.Out, Cell: j.Key(), Diff: diff}
	}
	return r, nil, nil
}

// readCell decodes the cell file at path into r. A file that parses but is
// not a finished cell (an empty object left by a sync tool or an editor,
// missing fields, another schema) is a *data.CorruptFileError saying "not a
// finished cell: no …", so it runs again like a truncated one.
func readCell(path string, r *run.Result) error {
	if err := data.ReadJSONFile(path, r); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"dataset", r.Dataset != "" && r.Config.Dataset != ""},
		{"model", r.Model != "" && r.Config.Model != ""},
		{"variant", r.Variant != "" && r.Config.Variant != ""},
		{"epochs", r.Config.Epochs > 0},
		{"evaluation history", len(r.History) > 0},
		{"dataset fingerprint", r.Fingerprint != ""},
	} {
		if !f.ok {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return &data.CorruptFileError{Path: path, Problem: "not a finished cell: no " + strings.Join(missing, ", no ")}
	}
	return nil
}

// StaleOutError refuses a --out folder whose cells were made with another
// configuration.
type StaleOutError struct {
	Dir, Cell string
	Diff      []string
}

func (e *StaleOutError) Error() string {
	return fmt.Sprintf("--out %s holds results of another configuration (cell %s differs in: %s); use another --out, or --fresh to discard them and start over",
		e.Dir, e.Cell, strings.Join(e.Diff, ", "))
}

// configDiff names the settings in which two configurations differ, as
// "field old → new" (data_dir is ignored: the fingerprint covers the data).
func configDiff(old, cur run.Config) []string {
	flat := func(c run.Config) map[string]string {
		c.DataDir, c.ScaleNote = "", "" // where the data is and the note's words are no settings
		b, _ := json.Marshal(c)
		var m map[string]any
		json.Unmarshal(b, &m)
		out := map[string]string{}
		var walk func(prefix string, v any)
		walk = func(prefix string, v any) {
			if mm, ok := v.(map[string]any); ok {
				for k, x := range mm {
					walk(strings.TrimPrefix(prefix+"."+k, "."), x)
				}
				return
			}
			out[prefix] = fmt.Sprint(v)
		}
		walk("", m)
		return out
	}
	a, b := flat(old), flat(cur)
	var diff []string
	for k, v := range b {
		if a[k] != v {
			diff = append(diff, fmt.Sprintf("%s %s → %s", k, orNone(a[k]), v))
		}
	}
	for k, v := range a {
		if _, ok := b[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s %s → (none)", k, v))
		}
	}
	sort.Strings(diff)
	return diff
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Fresh discards the cells and results under dir (the user asked to start
// over); other files are left alone.
func Fresh(dir string) error {
	if err := os.RemoveAll(filepath.Join(dir, "cells")); err != nil {
		return err
	}
	for _, f := range []string{"results.json", "results.csv", "results.md", "config.json"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// WriteJSON writes v as indented JSON to path, atomically.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return data.WriteFileAtomic(path, append(b, '\n'))
}
