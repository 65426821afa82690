package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gorgonia.org/tensor"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// CheckpointVersion is the format version written: 2 keeps the tensors
// (parameters, Adam's moments) in a NumPy .npz beside checkpoint.json,
// which holds the rest; version 1 (everything in the JSON) is still read.
const CheckpointVersion = 2

// CheckpointFile is the file inside a checkpoint directory.
const CheckpointFile = "checkpoint.json"

// Checkpoint is a resumable training state: everything that influences the
// rest of the run (parameters, Adam moments, every random stream, the
// evaluations so far) plus what is needed to check it is used on the same
// data.
type Checkpoint struct {
	Version     int               `json:"version"`
	Config      Config            `json:"config"`
	Epoch       int               `json:"epochs_done"`
	Fingerprint string            `json:"dataset_fingerprint"`
	HashDim     int               `json:"hash_dim"` // = Config.HashDim; kept so version-1 files keep their checksum
	Params      []ParamState      `json:"params"`
	AdamT       int               `json:"adam_steps"`
	AdamM       [][]float64       `json:"adam_m"`
	AdamV       [][]float64       `json:"adam_v"`
	RNG         map[string][]byte `json:"rng"`
	Evals       []Metrics         `json:"evals"`
	StepSeconds float64           `json:"step_seconds"`
	// Tensors names the .npz (in the checkpoint's directory) holding the
	// parameters ("param/NAME") and Adam's moments ("adam_m/NAME",
	// "adam_v/NAME"), and TensorsSHA256 its hash (version 2; the JSON then
	// holds no tensor values).
	Tensors       string `json:"tensors,omitempty"`
	TensorsSHA256 string `json:"tensors_sha256,omitempty"`
	Checksum      string `json:"checksum"`
}

// ParamState is one parameter tensor.
type ParamState struct {
	Name  string    `json:"name"`
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// checksum hashes the checkpoint's JSON without its checksum field; "" when
// it cannot be encoded (a non-finite value), which no file can match.
func (ck *Checkpoint) checksum() string {
	c := *ck
	c.Checksum = ""
	b, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// snapshot captures the built run's state after epochsDone epochs. It
// computes no checksum: Save checksums the manifest it writes (a checksum
// of the tensors as JSON text cost 0.85 GB of peak RSS at 10⁵ nodes).
func (c *Built) snapshot(epochsDone int, evals []Metrics, stepSeconds float64) (*Checkpoint, error) {
	ck := &Checkpoint{Version: CheckpointVersion, Config: c.cfg, Epoch: epochsDone, Fingerprint: c.p.Fingerprint,
		HashDim: c.cfg.HashDim, Evals: evals, StepSeconds: stepSeconds, RNG: map[string][]byte{}}
	for _, name := range c.ps.Names() {
		t := c.ps.Tensor(name)
		ck.Params = append(ck.Params, ParamState{Name: name, Shape: t.Shape().Clone(), Data: engine.ToFloat64(t)})
	}
	a := c.tr.Adam
	ck.AdamT = a.T
	for i := range a.M {
		ck.AdamM = append(ck.AdamM, engine.ToFloat64(a.M[i]))
		ck.AdamV = append(ck.AdamV, engine.ToFloat64(a.V[i]))
	}
	for name, s := range c.streams() {
		b, err := s.MarshalBinary()
		if err != nil {
			return nil, err
		}
		ck.RNG[name] = b
	}
	return ck, nil
}

func (c *Built) streams() map[string]*engine.Seeded {
	m := map[string]*engine.Seeded{"negatives": c.negRN, "dropout": c.dropRN, "mse-pairs": c.mseRN, "eval": c.evalRN}
	if c.lapK > 0 {
		m["lap-signs"] = c.signRN
	}
	return m
}

// Save writes the checkpoint to dir: the tensors to tensors.EPOCH.npz
// (float32 values as '<f4', exact), then checkpoint.json naming it and its
// hash, each atomically; then older tensor files go. A crash leaves the
// previous checkpoint whole.
func (ck *Checkpoint) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	f32 := ck.Config.DType != Float64
	var arrays []data.NPZArray
	m := *ck
	m.Params = make([]ParamState, len(ck.Params))
	for i, p := range ck.Params {
		m.Params[i] = ParamState{Name: p.Name, Shape: p.Shape}
		arrays = append(arrays, data.NPZArray{Name: "param/" + p.Name, Shape: p.Shape, Data: p.Data, F32: f32})
		if i < len(ck.AdamM) {
			arrays = append(arrays, data.NPZArray{Name: "adam_m/" + p.Name, Shape: p.Shape, Data: ck.AdamM[i], F32: f32},
				data.NPZArray{Name: "adam_v/" + p.Name, Shape: p.Shape, Data: ck.AdamV[i], F32: f32})
		}
	}
	m.AdamM, m.AdamV = nil, nil
	m.Version, m.Tensors = CheckpointVersion, fmt.Sprintf("tensors.%d.npz", ck.Epoch)
	sum, err := data.WriteNPZ(filepath.Join(dir, m.Tensors), arrays)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	m.TensorsSHA256 = sum
	m.Checksum = m.checksum()
	b, err := json.Marshal(&m)
	if err != nil {
		return err
	}
	if err := data.WriteFileAtomic(filepath.Join(dir, CheckpointFile), b); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "tensors.*.npz"))
	for _, f := range old {
		if filepath.Base(f) != m.Tensors {
			os.Remove(f)
		}
	}
	return nil
}

// LoadCheckpoint reads and verifies dir/checkpoint.json and, for version 2,
// the tensor file it names.
func LoadCheckpoint(dir string) (*Checkpoint, error) {
	path := filepath.Join(dir, CheckpointFile)
	var ck Checkpoint
	if err := data.ReadJSONFile(path, &ck); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("checkpoint: %s not found", path)
		}
		return nil, fmt.Errorf("checkpoint: %w", err) // names the file and the problem
	}
	if ck.Version != 1 && ck.Version != CheckpointVersion {
		return nil, fmt.Errorf("checkpoint: %s has format version %d, this ignn reads versions 1 and %d", path, ck.Version, CheckpointVersion)
	}
	if ck.Checksum == "" || ck.checksum() != ck.Checksum {
		return nil, fmt.Errorf("checkpoint: %s is corrupted: checksum mismatch", path)
	}
	if ck.Version == 1 {
		return &ck, nil
	}
	if ck.Tensors != filepath.Base(ck.Tensors) {
		return nil, fmt.Errorf("checkpoint: %s names tensors %q outside its directory", path, ck.Tensors)
	}
	arrays, err := data.ReadNPZ(filepath.Join(dir, ck.Tensors), ck.TensorsSHA256)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	get := func(name string) ([]float64, error) {
		a, ok := arrays[name]
		if !ok {
			return nil, fmt.Errorf("checkpoint: %s lacks %s", ck.Tensors, name)
		}
		return a.Data, nil
	}
	for i := range ck.Params {
		if ck.Params[i].Data, err = get("param/" + ck.Params[i].Name); err != nil {
			return nil, err
		}
		if ck.AdamT > 0 {
			mv, err := get("adam_m/" + ck.Params[i].Name)
			if err != nil {
				return nil, err
			}
			vv, err := get("adam_v/" + ck.Params[i].Name)
			if err != nil {
				return nil, err
			}
			ck.AdamM, ck.AdamV = append(ck.AdamM, mv), append(ck.AdamV, vv)
		}
	}
	return &ck, nil
}

// restore loads a checkpoint into a freshly built run, checking model,
// data and shapes.
func (c *Built) restore(ck *Checkpoint) error {
	return c.restoreOn(ck, false)
}

// restoreOn is restore; otherData allows data other than the training
// data (inductive embedding: the parameters must still fit).
func (c *Built) restoreOn(ck *Checkpoint, otherData bool) error {
	if ck.Config.Model != c.cfg.Model {
		return fmt.Errorf("checkpoint: model is %s, the run builds %s", ck.Config.Model, c.cfg.Model)
	}
	if ck.Fingerprint != c.p.Fingerprint && !otherData {
		return fmt.Errorf("checkpoint: dataset differs from the one it was trained on (fingerprint %.12s…, now %.12s…)", ck.Fingerprint, c.p.Fingerprint)
	}
	if mix := c.p.Input.SketchMix; mix != nil && len(ck.Evals) > 0 && ck.Evals[len(ck.Evals)-1].SketchShare > 0 {
		mix.W = float64(ck.Evals[len(ck.Evals)-1].SketchShare) // the share the last evaluation chose
	}
	if c.popularityAuto() && len(ck.Evals) > 0 {
		c.p.setPopularity(float64(ck.Evals[len(ck.Evals)-1].Popularity)) // the weight the last evaluation chose (absent: 0)
	}
	names := c.ps.Names()
	if len(names) != len(ck.Params) {
		return fmt.Errorf("checkpoint: %d parameters saved, the model has %d", len(ck.Params), len(names))
	}
	for i, p := range ck.Params {
		t := c.ps.Tensor(p.Name)
		if t == nil {
			return fmt.Errorf("checkpoint: parameter %s does not exist in model %s", p.Name, c.cfg.Model)
		}
		if names[i] != p.Name || !t.Shape().Eq(tensor.Shape(p.Shape)) || len(p.Data) != t.Shape().TotalSize() {
			return fmt.Errorf("checkpoint: parameter %s has shape %v (%d values), the model expects %v", p.Name, p.Shape, len(p.Data), t.Shape())
		}
		engine.SetFloat64(t, p.Data)
	}
	a := c.tr.Adam
	a.T = ck.AdamT
	if ck.AdamT > 0 {
		if len(ck.AdamM) != len(names) || len(ck.AdamV) != len(names) {
			return fmt.Errorf("checkpoint: Adam state for %d parameters, model has %d", len(ck.AdamM), len(names))
		}
		a.M, a.V = nil, nil
		for i := range ck.AdamM {
			t := c.ps.Tensor(names[i])
			if len(ck.AdamM[i]) != t.Shape().TotalSize() || len(ck.AdamV[i]) != t.Shape().TotalSize() {
				return fmt.Errorf("checkpoint: Adam state of %s has the wrong size", names[i])
			}
			a.M = append(a.M, engine.FromFloat64(t.Dtype(), ck.AdamM[i], t.Shape()...))
			a.V = append(a.V, engine.FromFloat64(t.Dtype(), ck.AdamV[i], t.Shape()...))
		}
	}
	for name, s := range c.streams() {
		b, ok := ck.RNG[name]
		if !ok {
			return fmt.Errorf("checkpoint: random stream %q missing", name)
		}
		if err := s.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("checkpoint: random stream %q: %w", name, err)
		}
	}
	return nil
}
