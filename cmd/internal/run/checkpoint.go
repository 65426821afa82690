package run

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"gorgonia.org/tensor"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// CheckpointVersion is the format version written and accepted.
const CheckpointVersion = 1

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
	Checksum    string            `json:"checksum"`
}

// ParamState is one parameter tensor.
type ParamState struct {
	Name  string    `json:"name"`
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// Fingerprint hashes a dataset's content (sizes, edges, labels, features,
// node ids), so a checkpoint refuses other data.
func Fingerprint(ds *data.Dataset) string {
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(b[:], v); h.Write(b[:]) }
	h.Write([]byte(ds.Name))
	put(uint64(len(ds.Graphs)))
	for gi, g := range ds.Graphs {
		put(uint64(g.N))
		for _, e := range g.Edges {
			put(uint64(e[0]))
			put(uint64(e[1]))
		}
		for _, l := range g.Labels {
			put(uint64(l))
		}
		for _, x := range g.X {
			put(math.Float64bits(x))
		}
		for _, id := range g.IDs {
			put(id)
		}
		for _, s := range g.Names { // named nodes only: integer datasets hash as before
			put(uint64(len(s)))
			h.Write([]byte(s))
		}
		if ds.Perm != nil {
			for _, p := range ds.Perm[gi] {
				put(uint64(p))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
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

// snapshot captures the built run's state after epochsDone epochs.
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
	ck.Checksum = ck.checksum()
	return ck, nil
}

func (c *Built) streams() map[string]*engine.Seeded {
	m := map[string]*engine.Seeded{"negatives": c.negRN, "dropout": c.dropRN, "mse-pairs": c.mseRN, "eval": c.evalRN}
	if c.lapK > 0 {
		m["lap-signs"] = c.signRN
	}
	return m
}

// Save writes the checkpoint atomically to dir/checkpoint.json.
func (ck *Checkpoint) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	b, err := json.Marshal(ck)
	if err != nil {
		return err
	}
	return data.WriteFileAtomic(filepath.Join(dir, CheckpointFile), b)
}

// LoadCheckpoint reads and verifies dir/checkpoint.json.
func LoadCheckpoint(dir string) (*Checkpoint, error) {
	path := filepath.Join(dir, CheckpointFile)
	var ck Checkpoint
	if err := ReadJSONFile(path, &ck); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("checkpoint: %s not found", path)
		}
		return nil, fmt.Errorf("checkpoint: %w", err) // names the file and the problem
	}
	if ck.Version != CheckpointVersion {
		return nil, fmt.Errorf("checkpoint: %s has format version %d, this ignn reads version %d", path, ck.Version, CheckpointVersion)
	}
	if ck.Checksum == "" || ck.checksum() != ck.Checksum {
		return nil, fmt.Errorf("checkpoint: %s is corrupted: checksum mismatch", path)
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

// Embed rebuilds the checkpointed model on ds (which must be the data it
// was trained on) and returns the L2-normalised embeddings, their width and
// the node ids in row order.
func Embed(ck *Checkpoint, ds *data.Dataset) ([]float64, int, []uint64, error) {
	cfg, err := ck.Config.Resolve(ds)
	if err != nil {
		return nil, 0, nil, err
	}
	p, err := Prepare(ds, cfg)
	if err != nil {
		return nil, 0, nil, err
	}
	built, err := Build(p, cfg)
	if err != nil {
		return nil, 0, nil, err
	}
	defer built.Close()
	if err := built.restore(ck); err != nil {
		return nil, 0, nil, err
	}
	z, d, err := built.Embeddings()
	if err != nil {
		return nil, 0, nil, err
	}
	return z, d, p.Union.IDs(), nil
}
