package run

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/data"
)

func shortRun(model string) Config {
	cfg := Default()
	cfg.Model, cfg.Epochs, cfg.EvalEvery = model, 20, 5
	if model == "pgnn-e" {
		cfg.ModelConfig.Layers = 2
		cfg.LambdaMSE = 1
	}
	return cfg
}

// miniBatchRecipe makes c, with the large defaults on a graph of at most
// WholeGraphNodes, take the mini-batch recipe (as --batch-steps 50 does)
// instead of the whole-graph one: tests of the mini-batch machinery on
// small graphs.
func miniBatchRecipe(c *Config) {
	c.Explicit["batch-steps"], c.BatchSteps = true, 50
}

// TestResumeMatchesUninterrupted: 20 epochs with --save, interrupted after
// epoch 10 and resumed, give exactly the metrics of an uninterrupted run
// (parameters, Adam moments and every random stream are checkpointed), from
// a version-2 checkpoint (tensors in a .npz) and from the same state
// written as version 1 (the format before it).
func TestResumeMatchesUninterrupted(t *testing.T) {
	for _, model := range []string{"gcn", "pgnn-e"} {
		full, err := Run(context.Background(), shortRun(model), Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		cfg := shortRun(model)
		cfg.Save = dir
		interruptAfter(t, cfg, 9)
		ck, err := LoadCheckpoint(dir)
		if err != nil || ck.Epoch != 10 {
			t.Fatalf("%s: checkpoint epoch %v, err %v", model, ck, err)
		}
		if model == "pgnn-e" { // the same state written as a version-1 file (tensors inside the JSON) resumes the same
			ck.Version, ck.Tensors, ck.TensorsSHA256 = 1, "", ""
			ck.Checksum = ck.checksum()
			b, _ := json.Marshal(ck)
			os.WriteFile(filepath.Join(dir, CheckpointFile), b, 0o644)
			old, _ := filepath.Glob(filepath.Join(dir, "tensors.*.npz"))
			for _, f := range old {
				os.Remove(f)
			}
		}
		resumed, err := Resume(context.Background(), dir, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if full.ValAUC != resumed.ValAUC || full.TestAUC != resumed.TestAUC || full.TestKendallTau != resumed.TestKendallTau ||
			full.BestEpoch != resumed.BestEpoch || !reflect.DeepEqual(full.Final, resumed.Final) {
			t.Errorf("%s: resumed run differs:\nfull    %+v %+v\nresumed %+v %+v", model, *full, full.Final, *resumed, resumed.Final)
		}
	}
}

func TestCorruptCheckpointRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := shortRun("gcn")
	cfg.Epochs, cfg.EvalEvery, cfg.Save = 5, 5, dir
	if _, err := Run(context.Background(), cfg, Hooks{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, CheckpointFile)
	good, _ := os.ReadFile(path)
	cases := map[string][]byte{
		"truncated": good[:len(good)/2],
		"flipped":   bytes.Replace(good, []byte(`"adam_steps":`), []byte(`"adam_steps":1`), 1),
		"version":   bytes.Replace(good, []byte(`"version":2`), []byte(`"version":7`), 1),
	}
	want := map[string]string{
		"truncated": fmt.Sprintf("is corrupt: truncated at byte %d", len(good)/2),
		"flipped":   "is corrupted: checksum mismatch",
		"version":   "has format version 7, this ignn reads versions 1 and 2",
	}
	for name, b := range cases {
		os.WriteFile(path, b, 0o644)
		_, err := LoadCheckpoint(dir)
		if err == nil || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: error %v, want %q", name, err, want[name])
		}
	}
	// A tensor file that is not the one the manifest recorded.
	os.WriteFile(path, good, 0o644)
	tensors, _ := filepath.Glob(filepath.Join(dir, "tensors.*.npz"))
	if len(tensors) != 1 {
		t.Fatalf("tensor files %v, want one", tensors)
	}
	tb, _ := os.ReadFile(tensors[0])
	bad := append([]byte(nil), tb...)
	bad[len(bad)/2] ^= 1
	os.WriteFile(tensors[0], bad, 0o644)
	if _, err := LoadCheckpoint(dir); err == nil || !strings.Contains(err.Error(), "is corrupted: its SHA-256") {
		t.Errorf("flipped tensor byte: %v", err)
	}
	os.WriteFile(tensors[0], tb, 0o644)
	if _, err := LoadCheckpoint(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing checkpoint: %v", err)
	}
	// A checkpoint refuses other data.
	os.WriteFile(path, good, 0o644)
	ck, _ := LoadCheckpoint(dir)
	other := cfg
	other.Seed = 2 // a different generated Communities graph
	ds, _ := LoadDataset(other)
	if _, _, _, err := Embed(ck, ds); err == nil || !strings.Contains(err.Error(), "dataset differs") {
		t.Errorf("other dataset: %v", err)
	}
}

func TestEmbedRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cfg := shortRun("gcn")
	cfg.Epochs, cfg.EvalEvery, cfg.Save = 5, 5, dir
	if _, err := Run(context.Background(), cfg, Hooks{}); err != nil {
		t.Fatal(err)
	}
	ck, _ := LoadCheckpoint(dir)
	ds, _ := LoadDataset(ck.Config)
	z, d, ids, err := Embed(ck, ds)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = data.Names(nil).Of(id)
	}
	npy, tsv := report.NPY(len(ids), d, z), report.TSV(keys, d, z)
	// .npy: magic, version 1.0, header length, header ending in '\n' at a
	// 64-byte boundary, then N·D little-endian float32.
	if string(npy[:8]) != "\x93NUMPY\x01\x00" {
		t.Fatalf("npy magic % x", npy[:8])
	}
	hl := int(binary.LittleEndian.Uint16(npy[8:10]))
	header := string(npy[10 : 10+hl])
	if (10+hl)%64 != 0 || !strings.HasSuffix(header, "\n") || !strings.Contains(header, "'shape': (400, 32)") || !strings.Contains(header, "'descr': '<f4'") {
		t.Fatalf("npy header %q", header)
	}
	body := npy[10+hl:]
	if len(body) != 400*32*4 {
		t.Fatalf("npy body has %d bytes", len(body))
	}
	lines := strings.Split(strings.TrimSpace(string(tsv)), "\n")
	if len(lines) != 400 {
		t.Fatalf("tsv has %d lines", len(lines))
	}
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 33 || f[0] != strconv.FormatUint(ids[i], 10) {
			t.Fatalf("tsv line %d: %q", i, line)
		}
		for k := 0; k < 32; k++ {
			v, _ := strconv.ParseFloat(f[k+1], 32)
			bits := binary.LittleEndian.Uint32(body[(i*32+k)*4:])
			if float32(v) != float32frombits(bits) {
				t.Fatalf("row %d col %d: tsv %v, npy %v", i, k, v, float32frombits(bits))
			}
		}
	}
}

func float32frombits(b uint32) float32 { return math.Float32frombits(b) }

// TestExtensionExampleTrains trains the layer docs/extending.md walks
// through, by name, as `ignn train --model graphconv` would.
func TestExtensionExampleTrains(t *testing.T) {
	cfg := Default()
	cfg.Model, cfg.Epochs, cfg.EvalEvery = "graphconv", 40, 10
	r, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if r.TestAUC < 0.9 {
		t.Errorf("graphconv test AUC %v after 40 epochs on Communities", r.TestAUC)
	}
}

// TestFloat32MatchesFloat64: the float32 default trains like float64 (the
// gradient checks run in float64; this ties the two precisions together).
func TestFloat32MatchesFloat64(t *testing.T) {
	res := map[DType]*Result{}
	for _, dt := range []DType{Float32, Float64} {
		cfg := shortRun("gcn")
		cfg.DType = dt
		r, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		res[dt] = r
	}
	a, b := res[Float32], res[Float64]
	if math.Abs(float64(a.Final.TestAUC-b.Final.TestAUC)) > 0.01 || math.Abs(float64(a.Final.TestKendallTau-b.Final.TestKendallTau)) > 0.02 {
		t.Errorf("float32 final AUC %.4f τ %.4f, float64 AUC %.4f τ %.4f", a.Final.TestAUC, a.Final.TestKendallTau, b.Final.TestAUC, b.Final.TestKendallTau)
	}
}

// TestPatienceResumes: an early-stopped run records its stopping epoch, and
// the same run interrupted before that point and resumed stops at the same
// epoch with the same metrics.
func TestPatienceResumes(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Epochs, cfg.EvalEvery, cfg.Patience = 60, 2, 2
	full, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if full.StoppedEpoch == 0 || full.Final.Epoch != full.StoppedEpoch {
		t.Fatalf("stopped epoch %d, final evaluation at %d", full.StoppedEpoch, full.Final.Epoch)
	}
	dir := t.TempDir()
	cfg.Save = dir
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Run(ctx, cfg, Hooks{Epoch: func(epoch int, _ float64, _ *Metrics) {
		if epoch == full.StoppedEpoch-3 {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("interrupted run reported success")
	}
	resumed, err := Resume(context.Background(), dir, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.StoppedEpoch != full.StoppedEpoch || !reflect.DeepEqual(resumed.Final, full.Final) {
		t.Errorf("resumed: stopped %d final %+v; uninterrupted: stopped %d final %+v", resumed.StoppedEpoch, resumed.Final, full.StoppedEpoch, full.Final)
	}
}
