package run

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ignn/ignn/cmd/internal/stages"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
)

// Prepared is a dataset made ready for one resolved configuration: the
// union of its graphs, per-graph splits with hop distances on the
// message-passing edges, and the model input (union adjacency, features,
// per-graph hop blocks for models that need them).
type Prepared struct {
	DS          *data.Dataset
	Union       *data.Union
	Splits      []*data.Split // one per graph, in union order
	Input       *engine.GraphInput
	Warnings    []string
	Notes       []string // what loading decided (the dataset's Notes): a header read as one, ignored columns
	Fingerprint string
	// Hops is the hop-distance source every sampler reads: each graph's
	// exact table (Split.Dist), or on the sampled path its BFS adjacency
	// (message-passing edges; Split.Dist is nil then) with the fixed τ
	// sample and its sources' rows as faithfulness queries.
	Hops      *data.Hops
	TauSample *eval.PairSample
	Queries   []eval.Query
	// The positional encoding (Config.Position other than the hash): per
	// graph how it was computed, its first dense input column, and the
	// seconds it took.
	Encoding        []features.EncodingInfo
	EncodingCol     int
	EncodingSeconds float64
	// SkipChoice is the skip block --skip-polar auto chose (nil otherwise).
	SkipChoice *SkipChoice
	val        *eval.ValSample // the validation pairs, when Prepare needed them (the cell reuses them)
	// spilledHops are the encodings whose hop counts the input's views
	// read from a spill file (warmSpills).
	spilledHops []*features.Encoding
	// popB is the popularity column's weight now (Input.Popularity), and
	// popLog each node's ln(1 + degree) under --popularity auto, which
	// sets it (setPopularity).
	popB   float64
	popLog []float64
}

// warmSpills asks for the spilled landmark hop counts' files in the page
// cache (Encoding.WillNeed) before a stage that reads them at scattered
// rows: each epoch's steps and each evaluation. Their pages may have been
// dropped while the run wrote its other files (an evaluation's embeddings
// alone are N × 32 × 4 B); without it the reads fault them back 4 KB at a
// time. It changes no number.
func (p *Prepared) warmSpills() {
	for _, e := range p.spilledHops {
		e.WillNeed()
	}
}

// Exact reports whether the run has all-pairs distance tables.
func (p *Prepared) Exact() bool { return p.Hops.Exact() }

// Prepare is the second stage: cfg must be resolved (Config.Resolve).
func Prepare(ds *data.Dataset, cfg Config) (*Prepared, error) { return PrepareWith(ds, cfg, nil) }

// PrepareWith is Prepare announcing its slow parts (splits and distances,
// the positional encoding, the features) to stage, when not nil.
func PrepareWith(ds *data.Dataset, cfg Config, stage func(string)) (*Prepared, error) {
	if stage == nil {
		stage = func(string) {}
	}
	stage(fmt.Sprintf("splits and %s distances (%d nodes, %d edges)", cfg.Distances, ds.NumNodes(), ds.NumEdges()))
	entry, err := models.Lookup(cfg.Model)
	if err != nil {
		return nil, err
	}
	p, kept, err := prepareGraphs(ds, cfg)
	if err != nil {
		return nil, err
	}
	u := p.Union
	var st *stages.Parts
	if cfg.Stages != "" {
		stage("BFS stages computed beforehand: reading " + cfg.Stages)
		if st, err = readStages(p, cfg); err != nil {
			return nil, err
		}
	}
	var loops, dups int
	for _, g := range kept.Graphs {
		loops, dups = loops+g.Removed.SelfLoops, dups+g.Removed.Duplicates
	}
	if loops+dups > 0 && IsPath(cfg.Dataset) { // built-in Email collapses directed mail: expected, documented
		count := func(n int, what string) string {
			if n == 1 {
				return "1 " + what
			}
			return fmt.Sprintf("%d %ss", n, what)
		}
		msg := fmt.Sprintf("input cleaned: removed %s and %s", count(loops, "self-loop"), count(dups, "duplicate edge"))
		if ds.Cleaned != "" {
			msg += fmt.Sprintf(" (%s: %s)", ds.Name, ds.Cleaned)
		}
		p.Warnings = append(p.Warnings, msg)
	}
	fo := features.Options{Hash: cfg.Variant.Hash() && cfg.Position.IsHash(), HashDim: cfg.HashDim, Float32: cfg.DType == Float32}
	if !cfg.Position.IsHash() {
		stage("positional encoding " + cfg.Position.String())
		if err := p.encode(cfg, &fo, st); err != nil {
			return nil, err
		}
	}
	view := viewInputs(cfg, kept.NumNodes()) && hopEncodings(fo.Encodings)
	fo.View = view
	stage("input features")
	x, err := features.Build(kept, fo)
	if err != nil {
		return nil, err
	}
	mp := p.Splits[0].MP // one graph: its own list (offset 0), not a copy
	if len(p.Splits) > 1 {
		mp = nil
		for g, s := range p.Splits {
			mp = u.AppendEdges(mp, g, s.MP)
		}
	}
	p.Input = &engine.GraphInput{Adj: wholeAdjacency(cfg, p, mp), X: x}
	mp = nil
	for _, s := range p.Splits { // in p.Input.Adj and p.Hops now
		s.DropMP()
	}
	p.EncodingCol = x.DenseDim - fo.EncodingDim
	var polar *engine.Features
	if cfg.PositionSkip {
		if !entry.Skip {
			return nil, fmt.Errorf("--position-skip: %s has no skip path (%s have)", cfg.Model, strings.Join(models.NamesWhere(func(e models.Entry) bool { return e.Skip }), ", "))
		}
		k := fo.EncodingDim
		if cfg.Position.IsHash() {
			k, p.EncodingCol = cfg.HashDim, x.DenseDim-cfg.HashDim
		}
		read := features.ColumnsOf(x, p.EncodingCol)
		var ahead func(int)      // the encodings' prefetch (views of their rows)
		if fo.Encodings != nil { // the encodings' exact values, not the input's float32 copy
			read, ahead = features.EncodingRows(fo.Encodings, u.Offsets), features.EncodingAhead(fo.Encodings, u.Offsets)
		}
		p.Input.Skip, polar = features.SkipBlocks(read, ahead, x.N, k, append(slices.Clone(u.Offsets), u.N), cfg.SkipPolar, cfg.SkipStandardise, cfg.DType == Float32, view && fo.Encodings != nil)
		if cfg.SkipIdentity && x.Sparse != nil { // the one-hot identity joins the skip block(s)
			for _, f := range []*engine.Features{p.Input.Skip, polar} {
				if f != nil {
					f.Sparse = x.Sparse
				}
			}
		}
		if err := p.embeddingEnds(cfg, stage); err != nil {
			return nil, err
		}
	}
	spilled := false // views of spilled hop counts read them in row order (engine.Features.ViewInOrder)
	for _, e := range fo.Encodings {
		if e.Spilled() {
			spilled, p.spilledHops = true, append(p.spilledHops, e)
		}
	}
	for _, f := range []*engine.Features{x, p.Input.Skip, polar} {
		if f != nil && f.View != nil {
			f.ViewInOrder = spilled
		}
	}
	fo.Encodings = nil // in the input and the skip block now (or read by their views)
	if !p.Exact() {
		stage(fmt.Sprintf("the fixed τ sample: %d pairs from %d BFS sources", cfg.TauPairs, cfg.TauSources))
		if st != nil {
			p.TauSample, p.Queries, p.val = st.Tau, st.Queries, st.Val
		} else {
			var err error // the queries' rows spilled with the rest (issue 37)
			if p.TauSample, p.Queries, err = eval.DrawTauSampleSpilled(p.Hops, cfg.TauSources, cfg.TauPairs, cfg.Seed, cfg.spillDir()); err != nil {
				return nil, err
			}
		}
	}
	principal := p.Input.Skip != nil && cfg.SkipPrincipal
	if cfg.SkipPolar == features.SkipPolarAuto && polar != nil {
		// Each stage is announced before its work: the validation sample's
		// BFS and the two blocks' τ are timed apart from the τ sample's.
		stage("--skip-polar auto: the validation sample and the untrained τ of both skip blocks")
		p.chooseSkip(cfg, p.Input.Skip, polar)
		c := p.SkipChoice
		msg := fmt.Sprintf("--skip-polar auto chose the %s skip block (untrained τ on the validation pairs: polar %.3f, standardised %.3f)", c.Block, c.ValTauPolar, c.ValTauStandardised)
		if principal {
			msg += "; its principal directions"
		}
		stage(msg)
	} else if principal {
		stage("the skip block's principal directions")
	}
	if sk := p.Input.Skip; principal { // the block's values as stored (float32 in a float32 run)
		p.Input.SkipInit = features.PrincipalRows(sk.Rows(), sk.N, sk.DenseDim, cfg.ModelConfig.Out)
	}
	for g, s := range p.Splits {
		b := engine.Block{Off: u.Offsets[g], N: s.Graph.N}
		// P-GNN gets no hop table: it finds each drawn set's closest
		// anchors by multi-source BFS on the same edges, on both distance
		// paths (same draws as the table, tested; faster and O(n) memory).
		p.Input.Blocks = append(p.Input.Blocks, b)
	}
	return p, nil
}

// prepareGraphs is Prepare's first part: the splits of the graphs large
// enough for the task (kept), their union and the hop-distance source on
// the message-passing edges — what a BFS stage computed beforehand needs.
func prepareGraphs(ds *data.Dataset, cfg Config) (*Prepared, *data.Dataset, error) {
	if err := pairTaskClasses(ds, cfg); err != nil {
		return nil, nil, err
	}
	p := &Prepared{Fingerprint: Fingerprint(ds), Notes: ds.Notes}
	splits, kept, skipped, err := data.NewSplits(ds, cfg.Task, engine.Stream(cfg.Seed, "split"))
	if err != nil {
		return nil, nil, err
	}
	p.Splits, p.Warnings = splits, append(p.Warnings, skipped...)
	u := kept.Union()
	if u.N > math.MaxInt32 { // the union's edges and the engine's links hold 32-bit rows
		return nil, nil, fmt.Errorf("data: %s: its graphs hold %d nodes together, more than 2³¹−1", ds.Name, u.N)
	}
	p.DS, p.Union = kept, u
	var mps [][][2]int32
	for _, s := range p.Splits {
		mps = append(mps, s.MP)
	}
	h, err := data.NewHops(u, mps, cfg.Distances == DistExact, cfg.Workers)
	if err != nil {
		return nil, nil, err
	}
	p.Hops = h
	for g, s := range p.Splits {
		if h.Exact() {
			s.Dist = h.Tables[g]
		}
	}
	return p, kept, nil
}

// pairTaskClasses refuses the pair task on data whose labelled nodes all
// share one class: every pair would be positive, with no negatives to
// train on or score, and AUC undefined. It names the labels file (or the
// dataset) and the class.
func pairTaskClasses(ds *data.Dataset, cfg Config) error {
	if cfg.Task != data.TaskPair {
		return nil
	}
	classes := map[int32]bool{}
	for _, g := range ds.Graphs {
		for _, l := range g.Labels {
			classes[l] = true
			if len(classes) > 1 {
				return nil
			}
		}
	}
	src := cmp.Or(cfg.Labels, ds.Name)
	if len(classes) == 0 {
		return nil // no labels at all: data.NewSplit says so
	}
	var only int32
	for l := range classes {
		only = l
	}
	return fmt.Errorf("data: %s: the pair task needs at least two classes among the labelled nodes, and every node has label %d (no negative pairs: nothing to train against, AUC undefined)", src, only)
}

// wholeAdjacency is the whole graph's message-passing adjacency over the
// union's edges mp. Whole-graph runs multiply by it (a CSR); mini-batch
// runs only read neighbour lists from it, as 32-bit Links: one graph on
// the sampled path shares its BFS adjacency's arrays (the same sorted
// lists of the same edges), so the graph is held once (issue 37: 4 GB of
// CSR indices at 10⁸ nodes); a union gets its own.
func wholeAdjacency(cfg Config, p *Prepared, mp [][2]int32) *engine.Adjacency {
	if cfg.BatchSize <= 0 {
		return engine.NewAdjacency(p.Union.N, mp)
	}
	a := (*data.Adj)(nil)
	if len(p.Splits) == 1 && !p.Exact() {
		a = p.Hops.Adjs[0]
	} else {
		a = data.NewAdj(p.Union.N, mp)
	}
	return engine.NewAdjacencyLinks(engine.Links{Off: a.Off, Nb: a.Nb})
}
