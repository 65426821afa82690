package run

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
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
	// TauCI is τ's 95% interval [lo, hi] on the sampled path (absent on the
	// exact path, where τ covers every pair).
	TauCI []Num `json:"test_kendall_tau_ci,omitempty"`
	// Rankings of the test split beside AUC (PyG/OGB conventions).
	TestAP     Num `json:"test_ap"`
	TestHits20 Num `json:"test_hits@20"`
	TestHits50 Num `json:"test_hits@50"`
	// The training losses (unweighted means) of this epoch's step; absent
	// for a term the run does not train.
	BCELoss Num `json:"bce_loss,omitempty"`
	MSELoss Num `json:"mse_loss,omitempty"`
	// RankLoss is the ranking term's (--distance-loss rank).
	RankLoss Num `json:"rank_loss,omitempty"`
	// Validation yardsticks on the run's validation pair sample (see
	// valSample), disjoint from the test τ pairs: τ, the BCE of the cosine
	// on the validation positives and negatives, the paper's MSE and the
	// ranking loss on the sample, and ValObjective = λ_BCE·BCE + λ_MSE·the
	// run's distance term (MSE, or the ranking loss with
	// --distance-loss rank). TestTauHeldout is test τ without the pairs the
	// validation sample holds (exact path; the sampled path's test sample
	// has none of them).
	ValKendallTau  Num `json:"val_kendall_tau,omitempty"`
	ValObjective   Num `json:"val_objective,omitempty"`
	ValBCE         Num `json:"val_bce,omitempty"`
	ValMSE         Num `json:"val_mse,omitempty"`
	ValRank        Num `json:"val_rank,omitempty"`
	TestTauHeldout Num `json:"test_kendall_tau_heldout,omitempty"`
	// SketchShare is the model's share beside the neighbourhood sketch
	// in this evaluation's embeddings (--sketch; chosen on the validation
	// pairs under --sketch-share 0); absent without a sketch.
	SketchShare Num `json:"sketch_share,omitempty"`
	// Popularity is the popularity column's weight b in this evaluation's
	// embeddings (--popularity; chosen on the validation pairs under
	// --popularity auto); absent without the column, and at 0.
	Popularity Num `json:"popularity,omitempty"`
}

// Result is one run's outcome; its JSON form is the CLI's --json output.
type Result struct {
	Dataset        string    `json:"dataset"`
	Task           data.Task `json:"task"`
	Model          string    `json:"model"`
	Variant        Variant   `json:"variant"`
	Seed           uint64    `json:"seed"`
	Epochs         int       `json:"epochs"`
	HashDim        int       `json:"hash_dim"`
	BestEpoch      int       `json:"best_epoch"`
	StoppedEpoch   int       `json:"stopped_epoch,omitempty"` // early stopping (--patience) ended training after this epoch
	ValAUC         Num       `json:"val_auc"`
	TestAUC        Num       `json:"test_auc"`
	TestKendallTau Num       `json:"test_kendall_tau"`
	TauCI          []Num     `json:"test_kendall_tau_ci,omitempty"`
	// The selected evaluation's validation τ and objective and held-out
	// test τ (see Metrics), and the validation pair counts the AUC
	// tolerance of --select auc-then-objective uses.
	ValKendallTau  Num            `json:"val_kendall_tau,omitempty"`
	ValObjective   Num            `json:"val_objective,omitempty"`
	TestTauHeldout Num            `json:"test_kendall_tau_heldout,omitempty"`
	ValPositives   int            `json:"val_positives,omitempty"`
	ValNegatives   int            `json:"val_negatives,omitempty"`
	Final          Metrics        `json:"final"`
	Selection      string         `json:"selection"`
	TauPairs       string         `json:"tau_pairs"`
	Distances      DistanceSource `json:"distances,omitempty"`      // sampled path only: "sampled"
	TauPairCount   int            `json:"tau_pair_count,omitempty"` // sampled path only
	// Supervision says what the distance term trained on (its pairs or
	// triples and how they were drawn); "mse_pairs" in JSON, as before.
	Supervision    string  `json:"mse_pairs,omitempty"`
	Batches        string  `json:"batches,omitempty"` // the mini-batch scheme; empty for whole-graph steps
	Graphs         int     `json:"graphs"`
	Nodes          int     `json:"nodes"`
	Params         int     `json:"params"`
	MemoryEstimate int64   `json:"memory_estimate_bytes"`
	TrainSeconds   float64 `json:"train_seconds"`
	// MsPerEpoch is the median epoch's step time (inputs + forward +
	// backward + Adam), as PyTorch Geometric comparisons take the median
	// epoch: a fresh process's first epochs (allocating every buffer,
	// faulting its pages in) do not count. MsPerEpochMean is the mean,
	// warm-up included. After a resume both cover the epochs this process ran.
	MsPerEpoch     float64 `json:"ms_per_epoch"`
	MsPerEpochMean float64 `json:"ms_per_epoch_mean"`
	// PrepareSeconds and EvalSeconds split TrainSeconds: the epochs' input
	// preparation (their draws; on the sampled path the ranking sources'
	// BFS over the whole graph, which grows with N — in MsPerEpoch too)
	// and the evaluations; the rest is the steps (and checkpoints, when
	// saved). MsPerStep, in a mini-batch run, is the median epoch's time
	// without its preparation over its steps: the step's own cost (batch,
	// forward, backward, Adam). All three cover the epochs this process ran.
	PrepareSeconds float64    `json:"prepare_seconds"`
	EvalSeconds    float64    `json:"eval_seconds"`
	MsPerStep      float64    `json:"ms_per_step,omitempty"`
	Warnings       []string   `json:"warnings,omitempty"`
	Config         Config     `json:"config"`
	Fingerprint    string     `json:"dataset_fingerprint"`
	Provenance     Provenance `json:"provenance"`
	// Faithfulness of the final embeddings to hop distance around the
	// query nodes (every node up to 2,000 on the exact path; the τ sample's
	// BFS sources on the sampled path).
	Faithfulness *Faithfulness `json:"faithfulness,omitempty"`
	// History is every evaluation of the run in epoch order (losses, AUC,
	// τ), kept across resumes; `ignn plot --curves` draws it.
	History []Metrics `json:"history"`
	// Encoding describes the positional encoding per graph (Config.Position
	// lap/rw/landmark): method, residuals or error bound, landmarks.
	Encoding        []features.EncodingInfo `json:"encoding,omitempty"`
	EncodingSeconds float64                 `json:"encoding_seconds,omitempty"`
	// SkipChoice is the block --skip-polar auto chose, with its reason.
	SkipChoice *SkipChoice `json:"skip_choice,omitempty"`
	// StageSeconds times the run's stages as the stage log names them
	// (graphs of StageNodes nodes or more; wall seconds, not results).
	StageSeconds []StageTime `json:"stage_seconds,omitempty"`
}

// StageTime is one stage of a run and its wall seconds.
type StageTime struct {
	Stage   string  `json:"stage"`
	Seconds float64 `json:"seconds"`
}

// Faithfulness is eval.Faithfulness in JSON (undefined values as null).
type Faithfulness struct {
	K              int      `json:"k"`
	Queries        int      `json:"queries"`
	PrecisionAtK   Num      `json:"precision_at_k"`
	DistortionMean Num      `json:"distortion_mean"`
	DistortionMax  Num      `json:"distortion_max"`
	Buckets        []Bucket `json:"by_distance"`
}

// Bucket is eval.Bucket in JSON (d = 0: unreachable pairs).
type Bucket struct {
	D         int    `json:"d"`
	Pairs     int    `json:"pairs"`
	MeanCos   Num    `json:"mean_cos"`
	TauNext   Num    `json:"tau_next"`
	Quantiles [5]Num `json:"cos_quantiles"` // 5, 25, 50, 75, 95%
}

func faithJSON(f eval.Faithfulness) *Faithfulness {
	out := &Faithfulness{K: f.K, Queries: f.Queries, PrecisionAtK: Num(f.PrecisionAtK),
		DistortionMean: Num(f.DistortionMean), DistortionMax: Num(f.DistortionMax)}
	for _, b := range f.Buckets {
		var q [5]Num
		for i, x := range b.Quantiles {
			q[i] = Num(x)
		}
		out.Buckets = append(out.Buckets, Bucket{D: b.D, Pairs: b.Pairs, MeanCos: Num(b.MeanCos), TauNext: Num(b.TauNext), Quantiles: q})
	}
	return out
}

// Select reports the evaluation rule chooses from the result's history
// ("" = SelectAUC): BestEpoch and the metrics beside it, and Selection.
// Re-selecting a stored result by another rule needs no retraining.
func (r *Result) Select(rule eval.SelectRule) {
	if rule == "" {
		rule = eval.SelectAUC
	}
	auc, obj := make([]float64, len(r.History)), make([]float64, len(r.History))
	for i, m := range r.History {
		auc[i], obj[i] = float64(m.ValAUC), float64(m.ValObjective)
	}
	i := eval.Select(auc, obj, rule, r.ValPositives, r.ValNegatives)
	if i < 0 {
		return
	}
	b := r.History[i]
	r.BestEpoch, r.ValAUC, r.TestAUC, r.TestKendallTau, r.TauCI = b.Epoch, b.ValAUC, b.TestAUC, b.TestKendallTau, b.TauCI
	r.ValKendallTau, r.ValObjective, r.TestTauHeldout = b.ValKendallTau, b.ValObjective, b.TestTauHeldout
	r.Selection = fmt.Sprintf("test metrics at %s, evaluated every %d epochs; 'final' = last epoch", rule.Describe(), r.Config.EvalEvery) +
		untrainedNote(r.BestEpoch, r.Final.Epoch)
}

// Provenance records what produced a result: the build (module version,
// VCS revision and whether the tree was modified), the toolchain and the
// machine, and when the run started.
type Provenance struct {
	Version    string `json:"version"`
	Revision   string `json:"revision"`
	Modified   bool   `json:"modified"`
	GoVersion  string `json:"go_version"`
	OSArch     string `json:"os_arch"`
	CPU        string `json:"cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Host       string `json:"host"`
	Start      string `json:"start_time"`
}

// CurrentProvenance describes this process, starting now.
func CurrentProvenance() Provenance {
	p := Provenance{Version: "unknown", Revision: "unknown", GoVersion: runtime.Version(),
		OSArch: runtime.GOOS + "/" + runtime.GOARCH, CPU: cpuModel(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Start: time.Now().UTC().Format(time.RFC3339)}
	p.Host, _ = os.Hostname()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			p.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Revision = s.Value
			case "vcs.modified":
				p.Modified = s.Value == "true"
			}
		}
	}
	return p
}

// Build names the build: a 12-digit revision, "+modified" when the tree
// had uncommitted changes.
func (p Provenance) Build() string {
	r := p.Revision
	if len(r) > 12 {
		r = r[:12]
	}
	if p.Modified {
		r += "+modified"
	}
	return r
}

// Machine names the machine: CPU model, GOMAXPROCS, host.
func (p Provenance) Machine() string {
	return fmt.Sprintf("%s, GOMAXPROCS %d, host %s", p.CPU, p.GOMAXPROCS, p.Host)
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
