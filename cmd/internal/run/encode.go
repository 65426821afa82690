package run

// The run's positional input, as Prepare makes it: the encoding of every
// kept graph (or its rows from BFS stages computed beforehand), the views
// that compute input and skip rows from landmark hop counts on large
// graphs, and --skip-polar auto's choice of skip block; the BFS stages'
// parts (package stages) ignn prepare writes and --prepared reads; the
// columns a skip-path embedding ends with (the sketch, the popularity).

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/ignn/ignn/cmd/internal/stages"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
)

// hopEncodings reports whether encs are landmark hop counts, smaller than
// the float32 rows they make.
func hopEncodings(encs []*features.Encoding) bool {
	for _, e := range encs {
		if !e.Hops() {
			return false
		}
	}
	return len(encs) > 0
}

// landmarkEncoding is the landmark encoding of BFS rows (from marks, n
// nodes each), its hop counts spilled into a file in dir unless dir is "".
func landmarkEncoding(dir string, n, k int, marks []int, rows []uint16) (*features.Encoding, features.EncodingInfo, error) {
	if dir == "" {
		v, info := features.LandmarkFromRows(n, k, marks, rows)
		return v, info, nil
	}
	return features.LandmarkSpilled(dir, n, k, marks, rows)
}

// SkipChoice is what --skip-polar auto chose, and why: the τ over the
// validation pairs (eval.ValSample, disjoint from the test τ pairs) of the
// cosines of each candidate block's own rows, before any training.
type SkipChoice struct {
	Block              string `json:"block"` // "polar" or "standardised"
	ValTauPolar        Num    `json:"val_tau_polar"`
	ValTauStandardised Num    `json:"val_tau_standardised"`
}

// chooseSkip keeps, of the standardised block std and the cone polar, the
// one whose rows' cosines have the higher τ over the validation pairs
// (the cone on a tie), into p.Input.Skip and p.SkipChoice.
func (p *Prepared) chooseSkip(cfg Config, std, polar *engine.Features) {
	p.val = p.valSample(cfg)
	var e eval.Evaluator
	tau := func(f *engine.Features) float64 {
		return e.SampleTauOf(eval.FeatureCosine(f), &p.val.Pairs)
	}
	c := &SkipChoice{Block: "polar", ValTauPolar: Num(tau(polar)), ValTauStandardised: Num(tau(std))}
	p.Input.Skip = polar
	if c.ValTauStandardised > c.ValTauPolar || math.IsNaN(float64(c.ValTauPolar)) {
		c.Block, p.Input.Skip = "standardised", std
	}
	p.SkipChoice = c
}

// valSample is the run's validation sample: read with the BFS stages
// computed beforehand, or drawn (eval.DrawValSample).
func (p *Prepared) valSample(cfg Config) *eval.ValSample {
	if p.val != nil {
		return p.val
	}
	return eval.DrawValSample(p.Hops, p.TauSample, cfg.TauSources, cfg.TauPairs, cfg.Seed)
}

// encode computes cfg.Position's encoding of every kept graph on its
// message-passing edges (never the held-out ones) into fo.
// With st (BFS stages computed beforehand), a landmark encoding is made
// from st's rows instead of its own BFS: the same encoding.
func (p *Prepared) encode(cfg Config, fo *features.Options, st *stages.Parts) error {
	pos := cfg.Position
	t0 := time.Now()
	fo.EncodingDim = pos.K
	spill := ""
	if pos.Kind == features.PosLandmark && viewInputs(cfg, p.Union.N) {
		spill = cfg.spillDir() // the views read the hop counts for the whole run
	}
	for g, s := range p.Splits {
		var v *features.Encoding
		var info features.EncodingInfo
		var err error
		switch {
		case st != nil && st.Landmarks != nil:
			v, info, err = landmarkEncoding(spill, s.Graph.N, pos.K, st.Marks[g], st.Landmarks[g])
			st.Landmarks[g] = nil
		case spill != "" && !p.Exact(): // LandmarkPE's landmarks and rows, a few rows at a time, spilled
			marks := features.LandmarkMarks(s.Graph.N, pos.K, cfg.Seed, g)
			v, info, err = features.LandmarkBFSSpilled(spill, p.Hops.Adjs[g], pos.K, marks, cfg.Workers)
		default:
			var a *data.Adj
			if p.Exact() {
				a = data.NewAdj(s.Graph.N, s.MP)
			} else { // the sampled path's own (built before this one was thrown away: 8 B an edge)
				a = p.Hops.Adjs[g]
			}
			v, info, err = features.Encode(pos, a, cfg.Seed, g, cfg.Workers)
		}
		if err != nil {
			return fmt.Errorf("%s: graph %s: %w", pos, s.Graph.Name, err)
		}
		fo.Encodings = append(fo.Encodings, v)
		p.Encoding = append(p.Encoding, info)
	}
	p.EncodingSeconds = time.Since(t0).Seconds()
	return nil
}

// stagesInput is what p's BFS stages depend on (stages.Input); only the
// sampled path has any.
func (p *Prepared) stagesInput(cfg Config) (stages.Input, error) {
	if p.Exact() {
		return stages.Input{}, fmt.Errorf("BFS stages computed beforehand are for sampled distances (--distances sampled, the default once the all-pairs tables would exceed %d entries); this run has exact tables, which need no BFS stage", ExactDistanceLimit)
	}
	return stages.Input{Union: p.Union, Hops: p.Hops, Fingerprint: p.Fingerprint, Seed: cfg.Seed, Task: cfg.Task,
		Position: cfg.Position, TauSources: cfg.TauSources, TauPairs: cfg.TauPairs, Workers: cfg.Workers}, nil
}

// PrepareStagePart computes part i of n of the BFS stages of cfg's run on
// ds (cfg resolved, ds as the run uses it: UseFeatures) into dir
// (stages.WritePart); it returns the part's path and what it holds.
func PrepareStagePart(ds *data.Dataset, cfg Config, dir string, i, n int) (string, string, error) {
	p, _, err := prepareGraphs(ds, cfg)
	if err != nil {
		return "", "", err
	}
	in, err := p.stagesInput(cfg)
	if err != nil {
		return "", "", err
	}
	return stages.WritePart(in, dir, i, n)
}

// readStages reads the parts in cfg.Stages written for p's run
// (stages.Read).
func readStages(p *Prepared, cfg Config) (*stages.Parts, error) {
	in, err := p.stagesInput(cfg)
	if err != nil {
		return nil, fmt.Errorf("--prepared %s: %w", cfg.Stages, err)
	}
	return stages.Read(in, cfg.Stages)
}

// CheckStages reads the parts in dir as a run of cfg on ds would (cfg
// resolved): nil when they are complete and of this run.
func CheckStages(ds *data.Dataset, cfg Config, dir string) error {
	p, _, err := prepareGraphs(ds, cfg)
	if err != nil {
		return err
	}
	cfg.Stages = dir
	_, err = readStages(p, cfg)
	return err
}

// embeddingEnds makes the columns a skip-path embedding ends with after
// training: the neighbourhood sketch (--sketch) and the popularity column
// (--popularity), both read from the message-passing edges.
func (p *Prepared) embeddingEnds(cfg Config, stage func(string)) error {
	var err error
	if m := cfg.ModelConfig.Sketch; m > 0 {
		stage(fmt.Sprintf("the neighbourhood sketch (%d columns)", m))
		l := p.Input.Adj.Links()
		if p.Input.Sketch, err = features.NeighbourSketch(l.Off, l.Nb, p.Input.Adj.N, m, cfg.DType == Float32, runtime.GOMAXPROCS(0)); err != nil {
			return err
		}
		p.Input.SketchMix = &engine.Mix{W: cmp.Or(cfg.ModelConfig.SketchShare, SketchReferenceShare)}
	}
	if mc := cfg.ModelConfig; mc.HasPopularity() {
		deg := p.Input.Adj.Degree()
		if p.Input.Popularity, err = features.Popularity(deg, mc.Popularity, cfg.DType == Float32); err != nil {
			return err
		}
		p.Input.PopularityMix = &engine.Mix{W: models.PopularityShare}
		p.popB = mc.Popularity
		if mc.PopularityAuto { // chosen at every evaluation, from 0 (the column unused)
			p.popLog = make([]float64, len(deg))
			for i, k := range deg {
				p.popLog[i] = math.Log1p(float64(k))
			}
		}
	}
	return nil
}
