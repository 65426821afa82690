package run

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// MemPart is one line of a memory plan: what it holds, its estimated bytes
// and the flag that shrinks it ("" when none does).
type MemPart struct {
	What  string `json:"what"`
	Bytes int64  `json:"bytes"`
	Flag  string `json:"flag,omitempty"`
}

// MemoryPlan is a run's estimated peak memory, by part.
type MemoryPlan struct {
	Parts  []MemPart `json:"parts"`
	Total  int64     `json:"total_bytes"`
	BigRun bool      `json:"big_run"` // the run collects garbage at GOGC = BigRunGCPercent
}

// Per-unit costs, calibrated against measured peak RSS (see
// TestMemoryPlanMatchesPeak and docs/performance.md's scale table): they fold in
// gorgonia's per-op output tensors, the gradients, the garbage collector's
// headroom under the memory limit, and float64 staging copies.
const (
	runtimeBase = 40 << 20 // Go runtime, gorgonia, code
	gcHeadroom  = 1.9      // peak RSS over live heap: the collector lets the heap double (GOGC = 100)
	bigHeadroom = 1.3      // the same for large runs, whose collector runs at GOGC = BigRunGCPercent
	// BigRun is the live-heap estimate above which Run lowers the GC
	// percentage to BigRunGCPercent: measured at 10⁵ nodes, peak RSS fell
	// from 2.26 to 1.46 GB and the run got faster (fewer fresh pages).
	BigRun          = 1 << 30
	BigRunGCPercent = 25
	bytesPerEdge    = 260 // edge lists, BFS adjacency, normalised CSR + transpose, split maps
	// Activations: the engine shares op output buffers by liveness
	// (engine/bufplan.go), so what stays is about two live N×hidden buffers
	// per layer (forward values kept for the backward pass, the gradient in
	// flight), one dropout mask per hidden layer, the pinned output and its
	// copy, and the pair losses' scatter scratch: actPerLayer·L + actFixed
	// N×hidden entries (× dtype bytes).
	actPerLayer  = 3
	actFixed     = 6
	bytesPerPair = 72 // per MSE/BCE pair slot: index/value/weight buffers and tensors, scatter
	paramCopies  = 4  // parameter, gradient, two Adam moments
	denseStaging = 8  // float64 copy of dense inputs beside the dtype copy
	tauPairBytes = 36 // τ sample: pair, distance, batch, cosines, sort scratch
	// rankTripleBytes: a triple's three indices in the draw and the op's
	// set, its weight and its gradient coefficient (not calibrated: the
	// term is small beside the rest).
	rankTripleBytes = 64
)

// PlanMemory estimates the peak memory of a resolved run on ds before any
// of it is built. Every size flag enters it: --hidden, --layers, --heads,
// --hash-dim, --mse-pairs, --mse-sources, --tau-pairs, --dtype, and the
// distance path.
func PlanMemory(cfg Config, ds *data.Dataset) MemoryPlan {
	var p MemoryPlan
	add := func(what string, b int64, flag string) {
		if b > 0 {
			p.Parts = append(p.Parts, MemPart{what, b, flag})
			p.Total += b
		}
	}
	n, e := int64(ds.NumNodes()), int64(ds.NumEdges())
	bt := int64(4)
	if cfg.DType == Float64 {
		bt = 8
	}
	mc := cfg.ModelConfig
	h, layers := int64(mc.Hidden), int64(mc.Layers)
	add("runtime", runtimeBase, "")
	add("graph: edges, adjacency, splits", e*bytesPerEdge, "")
	in := int64(ds.FeatureDim())
	dense := int64(0)
	if !ds.Identity {
		dense = in
	}
	if cfg.Variant.Hash() && cfg.Position.IsHash() {
		dense += int64(cfg.HashDim)
		add("hash vectors (N × hash dim)", n*int64(cfg.HashDim)*(bt+denseStaging), "--hash-dim")
	}
	if pos := cfg.Position; !pos.IsHash() && cfg.Variant.Hash() {
		k := int64(pos.K)
		dense += k
		// The encoding's N×K values, staged and copied, plus its solver's
		// scratch: Lanczos keeps 2K+32 vectors and their Ritz combination,
		// landmarks K BFS rows, walks one row per worker.
		scratch := map[string]int64{features.PosLap: (3*k + 33) * 8, features.PosLandmark: k * 2, features.PosRW: 8}[pos.Kind]
		add("positional encoding (N × K)", n*(k*(bt+denseStaging+8)+scratch), "--position")
	}
	if !ds.Identity && in > 0 {
		add("input attributes", n*in*(bt+denseStaging), "")
	}
	add("input weights and Adam state", (in+dense)*h*bt*paramCopies, "--hidden")
	// The model's own terms (GAT's attention, P-GNN's anchor messages).
	var own models.MemoryTerms
	if entry, err := models.Lookup(cfg.Model); err == nil && entry.Memory != nil {
		s := models.MemoryShape{Config: mc, Nodes: n, Edges: e, BytesPerValue: bt}
		for _, g := range ds.Graphs {
			s.GraphNodes = append(s.GraphNodes, g.N)
		}
		own = entry.Memory(s)
	}
	for _, t := range own.Before {
		add(t.What, t.Bytes, t.Flag)
	}
	act := n * h * bt * (actPerLayer*layers + actFixed) * max(1, own.ActivationScale)
	actFlag := cmp.Or(own.ActivationFlags, "--hidden or --layers")
	add("activations and gradients (N × hidden × layers)", act, actFlag)
	for _, t := range own.After {
		add(t.What, t.Bytes, t.Flag)
	}
	add("BCE pairs", 2*e*bytesPerPair, "")
	rank := cfg.DistanceLoss == objective.DistanceRank
	if rank {
		add("ranking triples per epoch", int64(cfg.RankTriples)*rankTripleBytes, "--rank-triples")
	}
	if cfg.Distances == DistExact {
		add("all-pairs distance tables (Σ n² × 2 B)", 2*exactEntries(ds), "--distances sampled")
		if cfg.Variant.MSE() && !rank {
			var pairs int64
			for _, g := range ds.Graphs {
				pairs += int64(g.N) * int64(g.N-1) / 2
			}
			add("MSE pair table", pairs*24+min(pairs, int64(cfg.MSEPairs))*bytesPerPair, "--mse-pairs")
		}
	} else {
		if cfg.Variant.MSE() && !rank {
			add("MSE pairs per epoch", int64(cfg.MSEPairs)*bytesPerPair, "--mse-pairs")
			add("MSE BFS rows (sources × N × 2 B)", int64(cfg.MSESources)*n*2, "--mse-sources")
		}
		add("τ sample", int64(cfg.TauPairs)*tauPairBytes+int64(min(cfg.TauSources, 2*eval.TauChunk))*n*2, "--tau-pairs")
	}
	add("evaluation embeddings (float64)", n*int64(mc.Out)*8*2, "")
	// Live heap → peak RSS: the collector's headroom.
	head := gcHeadroom
	if p.Total > BigRun {
		head, p.BigRun = bigHeadroom, true
	}
	p.Total = 0
	for i := range p.Parts {
		if p.Parts[i].What != "runtime" {
			p.Parts[i].Bytes = int64(float64(p.Parts[i].Bytes) * head)
		}
		p.Total += p.Parts[i].Bytes
	}
	sort.SliceStable(p.Parts, func(a, b int) bool { return p.Parts[a].Bytes > p.Parts[b].Bytes })
	return p
}

// Check refuses a plan above limit with the estimate, its largest parts and
// the flags that lower them.
func (p MemoryPlan) Check(limit int64) error {
	if limit <= 0 || p.Total <= limit {
		return nil
	}
	var parts []string
	for _, q := range p.Parts[:min(3, len(p.Parts))] {
		s := fmt.Sprintf("%s %s", q.What, FormatBytes(q.Bytes))
		if q.Flag != "" {
			s += " (lower with " + q.Flag + ")"
		}
		parts = append(parts, s)
	}
	return fmt.Errorf("the run needs an estimated %s, above --max-memory %s; largest parts: %s",
		FormatBytes(p.Total), FormatBytes(limit), strings.Join(parts, "; "))
}

// FormatBytes prints 1.5 GB, 300 MB, 12 KB.
func FormatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.0f KB", float64(b)/(1<<10))
}

// ParseBytes reads "auto", a byte count, or a number with K, M, G or T
// (powers of 1024); "auto" is DefaultMaxMemory.
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	if s == "AUTO" || s == "" {
		return DefaultMaxMemory(), nil
	}
	mul := int64(1)
	for i, u := range []string{"K", "M", "G", "T"} {
		if strings.HasSuffix(s, u) || strings.HasSuffix(s, u+"B") {
			s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), u)
			mul = 1 << (10 * (i + 1))
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || v*float64(mul) > 1<<62 {
		return 0, fmt.Errorf("not a memory size (use e.g. 8G, 500M or auto)")
	}
	return int64(v * float64(mul)), nil
}

// DefaultMaxMemory is 75% of physical memory (MemTotal), or 4 GB when it
// cannot be read.
func DefaultMaxMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 4 << 30
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
			return kb * 1024 * 3 / 4
		}
	}
	return 4 << 30
}
