package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
	"gorgonia.org/tensor"
)

// Num is a float that marshals NaN (an undefined metric) as JSON null.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// UnmarshalJSON implements json.Unmarshaler (null → NaN).
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = Num(f)
	return err
}

// Metrics are the numbers reported at one evaluated epoch.
type Metrics struct {
	Epoch          int `json:"epoch"`
	ValAUC         Num `json:"val_auc"`
	TestAUC        Num `json:"test_auc"`
	TestKendallTau Num `json:"test_kendall_tau"`
}

// Result is one run's outcome; its JSON form is the CLI's --json output.
type Result struct {
	Dataset        string   `json:"dataset"`
	Task           string   `json:"task"`
	Model          string   `json:"model"`
	Variant        string   `json:"variant"`
	Seed           uint64   `json:"seed"`
	Epochs         int      `json:"epochs"`
	HashDim        int      `json:"hash_dim"`
	BestEpoch      int      `json:"best_epoch"`
	ValAUC         Num      `json:"val_auc"`
	TestAUC        Num      `json:"test_auc"`
	TestKendallTau Num      `json:"test_kendall_tau"`
	Final          Metrics  `json:"final"`
	Selection      string   `json:"selection"`
	TauPairs       string   `json:"tau_pairs"`
	MSEPairs       string   `json:"mse_pairs,omitempty"`
	Graphs         int      `json:"graphs"`
	Nodes          int      `json:"nodes"`
	Params         int      `json:"params"`
	TrainSeconds   float64  `json:"train_seconds"`
	MsPerEpoch     float64  `json:"ms_per_epoch"`
	Warnings       []string `json:"warnings,omitempty"`
	Config         Config   `json:"config"`
}

// Hooks observe a run (all optional).
type Hooks struct {
	// Epoch is called after every epoch; ev is nil on unevaluated epochs.
	Epoch func(epoch int, loss float64, ev *Metrics)
	// Warn reports a non-fatal problem (also kept in Result.Warnings).
	Warn func(msg string)
}

// InterruptedError reports a run stopped by its context after finishing an
// epoch; Dir holds the checkpoint to resume from ("" if none was saved).
type InterruptedError struct {
	Epoch int
	Dir   string
	Err   error
}

func (e *InterruptedError) Error() string {
	if e.Dir == "" {
		return fmt.Sprintf("interrupted after epoch %d: %v (no --save directory, nothing kept)", e.Epoch, e.Err)
	}
	return fmt.Sprintf("interrupted after epoch %d: %v; checkpoint saved in %s — resume with `ignn train --resume %s`", e.Epoch, e.Err, e.Dir, e.Dir)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// Run trains one cell and returns its metrics. ctx cancels between epochs.
// With cfg.Save set, a checkpoint is written atomically after every
// evaluation, at the end, and when ctx stops the run.
func Run(ctx context.Context, cfg Config, hooks Hooks) (*Result, error) {
	return run(ctx, cfg, hooks, nil)
}

// Resume continues the run saved in dir with its saved configuration; it
// ends with the same metrics as the uninterrupted run. Its checkpoints go
// back to dir.
func Resume(ctx context.Context, dir string, hooks Hooks) (*Result, error) {
	ck, err := LoadCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	cfg := ck.Config
	cfg.Save = dir
	return run(ctx, cfg, hooks, ck)
}

func run(ctx context.Context, cfg Config, hooks Hooks, ck *Checkpoint) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	entry, _ := models.Lookup(cfg.Model)
	ds, err := LoadDataset(cfg)
	if err != nil {
		return nil, err
	}
	p, err := Prepare(ds, cfg, entry)
	if err != nil {
		return nil, err
	}
	res := &Result{Dataset: cfg.Dataset, Task: cfg.Task, Model: cfg.Model, Variant: cfg.Variant,
		Seed: cfg.Seed, Epochs: cfg.Epochs, HashDim: p.HashDim, Graphs: len(ds.Graphs), Nodes: ds.NumNodes(),
		Selection: fmt.Sprintf("test metrics at the first epoch with the highest validation AUC, evaluated every %d epochs; 'final' = last epoch", cfg.EvalEvery),
		TauPairs:  "Kendall τ-b between hop distance (ascending) and cosine (descending) over all intra-graph pairs at finite distance on the message-passing graph, per graph, averaged",
		Config:    cfg,
	}
	if !cfg.UsesHash() {
		res.HashDim = 0
	}
	warn := func(msg string) {
		res.Warnings = append(res.Warnings, msg)
		if hooks.Warn != nil {
			hooks.Warn(msg)
		}
	}
	for _, w := range p.Warnings {
		warn(w)
	}
	cell, err := p.Build(cfg, entry)
	if err != nil {
		return nil, err
	}
	defer cell.Close()
	res.Params = cell.ps.Count()
	if cell.loss.MSE != nil {
		res.MSEPairs = cell.mseMode
	}
	var evals []Metrics
	var prior []engine.Evaluation
	start, stepSeconds := 0, 0.0
	if ck != nil {
		if err := cell.restore(ck); err != nil {
			return nil, err
		}
		start, evals, stepSeconds = ck.Epoch, append(evals, ck.Evals...), ck.StepSeconds
		for _, m := range ck.Evals {
			prior = append(prior, engine.Evaluation{Epoch: m.Epoch, ValAUC: float64(m.ValAUC),
				Metrics: map[string]float64{"test_auc": float64(m.TestAUC), "tau": float64(m.TestKendallTau)}})
		}
	}
	save := func(done int, secs float64) error {
		if cfg.Save == "" {
			return nil
		}
		snap, err := cell.snapshot(done, evals, secs)
		if err != nil {
			return err
		}
		return snap.Save(cfg.Save)
	}
	var loopSeconds float64
	stepStart := time.Now()
	warned := map[string]bool{}
	evaluate := func(epoch int) (engine.Evaluation, error) {
		m, ws, err := cell.Evaluate()
		for _, w := range ws {
			if !warned[w] {
				warned[w] = true
				warn(w)
			}
		}
		return engine.Evaluation{ValAUC: m.ValAUC, Metrics: map[string]float64{"test_auc": m.TestAUC, "tau": m.Tau}}, err
	}
	fc := engine.FitConfig{Epochs: cfg.Epochs, EvalEvery: cfg.EvalEvery, StartEpoch: start, Prior: prior,
		OnEpoch: func(epoch int, st engine.StepResult, ev *engine.Evaluation) error {
			if ev != nil {
				evals = append(evals, toMetrics(*ev))
			}
			loopSeconds = stepSeconds + time.Since(stepStart).Seconds()
			if hooks.Epoch != nil {
				var m *Metrics
				if ev != nil {
					mm := toMetrics(*ev)
					m = &mm
				}
				hooks.Epoch(epoch, st.Loss, m)
			}
			if err := ctx.Err(); err != nil {
				if serr := save(epoch+1, loopSeconds); serr != nil {
					return fmt.Errorf("interrupted after epoch %d, and saving the checkpoint failed: %w", epoch, serr)
				}
				return &InterruptedError{Epoch: epoch, Dir: cfg.Save, Err: err}
			}
			if ev != nil || epoch == cfg.Epochs-1 {
				if err := save(epoch+1, loopSeconds); err != nil {
					return err
				}
			}
			return nil
		}}
	t0 := time.Now()
	fr, err := engine.Fit(cell.tr, fc, cell.Prepare, evaluate)
	if err != nil {
		return nil, err
	}
	res.TrainSeconds = time.Since(t0).Seconds()
	res.MsPerEpoch = 1000 * fr.StepSeconds / float64(max(1, cfg.Epochs-start))
	best := toMetrics(fr.Best)
	res.BestEpoch, res.ValAUC, res.TestAUC, res.TestKendallTau = best.Epoch, best.ValAUC, best.TestAUC, best.TestKendallTau
	res.Final = toMetrics(fr.Final)
	return res, nil
}

func toMetrics(ev engine.Evaluation) Metrics {
	return Metrics{Epoch: ev.Epoch, ValAUC: Num(ev.ValAUC), TestAUC: Num(ev.Metrics["test_auc"]), TestKendallTau: Num(ev.Metrics["tau"])}
}

// Prepared is a dataset made ready for one task and seed: per-graph splits
// and distances, the union adjacency and the input features.
type Prepared struct {
	DS          *data.Dataset
	Splits      []*data.Split
	Offsets     []int
	Input       *engine.GraphInput
	HashDim     int
	Warnings    []string
	Fingerprint string
	rngNeg      *engine.Seeded
}

// Prepare splits every graph, computes hop distances on the message-passing
// edges (truncated when the model asks for it) and builds the union input.
func Prepare(ds *data.Dataset, cfg Config, entry models.Entry) (*Prepared, error) {
	p := &Prepared{DS: ds, rngNeg: engine.NewSeeded(cfg.Seed, "negatives"), Fingerprint: Fingerprint(ds)}
	splitRNG := engine.Stream(cfg.Seed, "split")
	var mp [][2]int
	off := 0
	for _, g := range ds.Graphs {
		s, err := data.NewSplit(g, cfg.Task, splitRNG)
		if err != nil {
			return nil, err
		}
		s.Dist, err = data.HopDistances(g.N, s.MP, 0, cfg.Workers)
		if err != nil {
			return nil, err
		}
		p.Splits = append(p.Splits, s)
		p.Offsets = append(p.Offsets, off)
		for _, e := range s.MP {
			mp = append(mp, [2]int{e[0] + off, e[1] + off})
		}
		off += g.N
	}
	var loops, dups int
	for _, g := range ds.Graphs {
		loops, dups = loops+g.Removed.SelfLoops, dups+g.Removed.Duplicates
	}
	if loops+dups > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("input cleaned: removed %d self-loops and %d duplicate edges", loops, dups))
	}
	p.HashDim = cfg.HashDim
	if p.HashDim < 0 {
		p.HashDim = features.DefaultHashDim(ds)
	}
	x, err := features.Build(ds, features.Options{Hash: cfg.UsesHash(), HashDim: p.HashDim})
	if err != nil {
		return nil, err
	}
	p.Input = &engine.GraphInput{Adj: engine.NewAdjacency(off, mp), X: x}
	for gi, s := range p.Splits {
		b := engine.Block{Off: p.Offsets[gi], N: s.Graph.N}
		if entry.NeedsHops {
			b.Hops = s.Dist.D
			if entry.MaxHops > 0 {
				b.Hops = truncate(s.Dist.D, entry.MaxHops)
			}
		}
		p.Input.Blocks = append(p.Input.Blocks, b)
	}
	return p, nil
}

func truncate(d []uint16, k int) []uint16 {
	out := make([]uint16, len(d))
	for i, v := range d {
		if v != data.Unreachable && int(v) <= k {
			out[i] = v
		} else {
			out[i] = engine.HopUnreachable
		}
	}
	return out
}

// Cell is a built run: training and evaluation graphs over shared
// parameters, with the buffers its per-epoch inputs are drawn into.
type Cell struct {
	p      *Prepared
	cfg    Config
	ps     *engine.ParamStore
	tr     *engine.Trainer
	fwd    *engine.Forward
	loss   *objective.Loss
	evalRN *engine.Seeded
	dropRN *engine.Seeded

	bceI, bceJ []int
	bceY       []float64
	bi, bj     []int
	bv, bw     []float64

	mseI, mseJ []int
	mseT       []float64
	mseAll     bool
	mseMode    string
	mseRNG     *engine.Seeded
	mi, mj     []int
	mv, mw     []float64
	si, sj     []int
	st         []float64
}

// Build constructs the graphs and the trainer.
func (p *Prepared) Build(cfg Config, entry models.Entry) (*Cell, error) {
	dt := tensor.Float32
	if cfg.DType == "float64" {
		dt = tensor.Float64
	}
	c := &Cell{p: p, cfg: cfg, ps: engine.NewParamStore(dt, engine.Stream(cfg.Seed, "init")),
		evalRN: engine.NewSeeded(cfg.Seed, "eval"), mseRNG: engine.NewSeeded(cfg.Seed, "mse-pairs"),
		dropRN: engine.NewSeeded(cfg.Seed, "dropout")}
	mc := cfg.Model_
	model := entry.New(mc)
	bTrain := engine.NewBuilder(c.ps, true)
	z, err := models.Build(model, bTrain, p.Input)
	if err != nil {
		return nil, err
	}
	nTrain := 0
	for _, s := range p.Splits {
		nTrain += len(s.Train)
	}
	obj := cfg.Objective()
	mseSlots := 0
	if obj.LambdaMSE > 0 {
		c.collectMSEPairs()
		mseSlots = len(c.mseI)
		c.mseAll = true
		c.mseMode = fmt.Sprintf("all %d intra-graph pairs every epoch", len(c.mseI))
		if len(c.mseI) > cfg.MSEPairs {
			mseSlots = cfg.MSEPairs
			c.mseAll = false
			c.mseMode = fmt.Sprintf("%d of %d intra-graph pairs, resampled every epoch", cfg.MSEPairs, len(c.mseI))
		}
	}
	c.loss, err = objective.Build(bTrain, z, obj, 2*nTrain, mseSlots)
	if err != nil {
		return nil, err
	}
	c.tr, err = engine.NewTrainer(bTrain, c.loss.Total, c.loss.Terms,
		engine.TrainOptions{LR: cfg.LR, WeightDecay: cfg.WeightDec}, c.dropRN.Rand)
	if err != nil {
		return nil, err
	}
	bEval := engine.NewBuilder(c.ps, false)
	ze, err := models.Build(model, bEval, p.Input)
	if err != nil {
		return nil, err
	}
	c.fwd, err = engine.NewForward(bEval, ze)
	if err != nil {
		return nil, err
	}
	c.bi, c.bj = make([]int, 2*nTrain), make([]int, 2*nTrain)
	c.bv, c.bw = make([]float64, 2*nTrain), make([]float64, 2*nTrain)
	if mseSlots > 0 {
		c.mi, c.mj = make([]int, mseSlots), make([]int, mseSlots)
		c.mv, c.mw = make([]float64, mseSlots), make([]float64, mseSlots)
		if c.mseAll {
			if err := objective.Fill(c.loss.MSE, c.mseI, c.mseJ, c.mseT, true, c.mi, c.mj, c.mv, c.mw); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// collectMSEPairs lists every intra-graph pair i<j with its target.
func (c *Cell) collectMSEPairs() {
	for gi, s := range c.p.Splits {
		off, n := c.p.Offsets[gi], s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d := s.Dist.At(i, j)
				c.mseI = append(c.mseI, off+i)
				c.mseJ = append(c.mseJ, off+j)
				c.mseT = append(c.mseT, objective.Target(int(d), d != data.Unreachable, c.cfg.Alpha))
			}
		}
	}
}

// Prepare draws the epoch's training negatives (and MSE pair sample) and
// binds them.
func (c *Cell) Prepare(epoch int) error {
	if c.loss.BCE != nil {
		c.bceI, c.bceJ, c.bceY = c.bceI[:0], c.bceJ[:0], c.bceY[:0]
		for gi, s := range c.p.Splits {
			off := c.p.Offsets[gi]
			for _, q := range s.Train {
				c.bceI, c.bceJ, c.bceY = append(c.bceI, off+int(q.I)), append(c.bceJ, off+int(q.J)), append(c.bceY, 1)
			}
			for _, q := range s.SampleTrainNegatives(c.p.rngNeg.Rand, len(s.Train)) {
				c.bceI, c.bceJ, c.bceY = append(c.bceI, off+int(q.I)), append(c.bceJ, off+int(q.J)), append(c.bceY, 0)
			}
		}
		if err := objective.Fill(c.loss.BCE, c.bceI, c.bceJ, c.bceY, false, c.bi, c.bj, c.bv, c.bw); err != nil {
			return err
		}
	}
	if c.loss.MSE != nil && !c.mseAll {
		k := c.loss.MSE.Slots
		c.si, c.sj, c.st = c.si[:0], c.sj[:0], c.st[:0]
		for t := 0; t < k; t++ {
			r := c.mseRNG.IntN(len(c.mseI))
			c.si, c.sj, c.st = append(c.si, c.mseI[r]), append(c.sj, c.mseJ[r]), append(c.st, c.mseT[r])
		}
		if err := objective.Fill(c.loss.MSE, c.si, c.sj, c.st, true, c.mi, c.mj, c.mv, c.mw); err != nil {
			return err
		}
	}
	return nil
}

// EvalMetrics are the per-evaluation averages over graphs.
type EvalMetrics struct{ ValAUC, TestAUC, Tau float64 }

// Embeddings runs the evaluation graph and returns the N×D embeddings.
func (c *Cell) Embeddings() ([]float64, int, error) {
	z, shape, err := c.fwd.Run(c.evalRN.Rand)
	if err != nil {
		return nil, 0, err
	}
	return z, shape[1], nil
}

// Evaluate computes validation and test AUC and Kendall τ-b, each per graph
// and averaged over graphs. Graphs whose embeddings collapsed (cosine spread
// ≤ 1e-6) get τ undefined and a warning instead of a number.
func (c *Cell) Evaluate() (EvalMetrics, []string, error) {
	z, d, err := c.Embeddings()
	if err != nil {
		return EvalMetrics{}, nil, err
	}
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return EvalMetrics{}, nil, fmt.Errorf("embeddings contain %v", v)
		}
	}
	return GraphMetrics(z, d, c.p.Splits, c.p.Offsets)
}

// GraphMetrics scores embeddings z (rows of width d, union order) on every
// split; see Cell.Evaluate.
func GraphMetrics(z []float64, d int, splits []*data.Split, offsets []int) (EvalMetrics, []string, error) {
	dot := func(i, j int) float64 {
		var s float64
		a, b := z[i*d:(i+1)*d], z[j*d:(j+1)*d]
		for k := range a {
			s += a[k] * b[k]
		}
		return s
	}
	auc := func(off int, pos, neg []data.Pair) float64 {
		sc := make([]float64, 0, len(pos)+len(neg))
		lb := make([]bool, 0, len(pos)+len(neg))
		for _, q := range pos {
			sc, lb = append(sc, dot(off+int(q.I), off+int(q.J))), append(lb, true)
		}
		for _, q := range neg {
			sc, lb = append(sc, dot(off+int(q.I), off+int(q.J))), append(lb, false)
		}
		return eval.AUC(sc, lb)
	}
	var m EvalMetrics
	var warns []string
	var nv, nt, ntau int
	var dist, cos []float64
	for gi, s := range splits {
		off := offsets[gi]
		if a := auc(off, s.Val, s.ValNeg); !math.IsNaN(a) {
			m.ValAUC += a
			nv++
		}
		if a := auc(off, s.Test, s.TestNeg); !math.IsNaN(a) {
			m.TestAUC += a
			nt++
		}
		dist, cos = dist[:0], cos[:0]
		lo, hi := math.Inf(1), math.Inf(-1)
		n := s.Graph.N
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				h := s.Dist.At(i, j)
				if h == data.Unreachable {
					continue
				}
				c := dot(off+i, off+j)
				lo, hi = math.Min(lo, c), math.Max(hi, c)
				dist = append(dist, float64(h))
				cos = append(cos, -c) // ascending distance ~ descending cosine
			}
		}
		if len(dist) < 2 {
			continue
		}
		if hi-lo <= 1e-6 {
			warns = append(warns, fmt.Sprintf("graph %s: embeddings collapsed (cosine spread %.2g ≤ 1e-6); Kendall τ undefined for it", s.Graph.Name, hi-lo))
			continue
		}
		if t := eval.KendallTauB(dist, cos); !math.IsNaN(t) {
			m.Tau += t
			ntau++
		}
	}
	div := func(s float64, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return s / float64(n)
	}
	m.ValAUC, m.TestAUC, m.Tau = div(m.ValAUC, nv), div(m.TestAUC, nt), div(m.Tau, ntau)
	return m, warns, nil
}

// Close releases the machines.
func (c *Cell) Close() {
	if c.tr != nil {
		c.tr.Close()
	}
	if c.fwd != nil {
		c.fwd.Close()
	}
}
