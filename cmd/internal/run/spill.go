package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// SpillAuto is Config.Spill's "decide by the memory plan": spill into
// AutoSpillDir only when the run would not fit --max-memory otherwise.
const SpillAuto = "auto"

// tmpfsMagic is statfs's type of a tmpfs: its files are memory, so a
// spill there saves nothing.
const tmpfsMagic = 0x01021994

// AutoSpillDir is where --spill auto spills: the system's temporary
// directory ($TMPDIR, else /tmp), or "" when that is a tmpfs.
func AutoSpillDir() string {
	dir := os.TempDir()
	if free, tmpfs := freeBytes(dir); free < 0 || tmpfs {
		return ""
	}
	return dir
}

// PlanMemory estimates the peak memory of a resolved run on ds before any
// of it is built (planMemory). With cfg.Spill auto, it is the plan of the
// run as it will be made: in memory when that fits cfg.MaxMemory (or no
// limit is set), else spilled into AutoSpillDir when that is smaller
// (the plan's Spill then names the directory).
func PlanMemory(cfg Config, ds *data.Dataset) MemoryPlan {
	if cfg.Spill != SpillAuto {
		return planMemory(cfg, ds)
	}
	cfg.Spill = ""
	p := planMemory(cfg, ds)
	if cfg.MaxMemory <= 0 || p.Total <= cfg.MaxMemory {
		return p
	}
	if cfg.Spill = AutoSpillDir(); cfg.Spill == "" || checkSpill(cfg, ds.NumNodes()) != nil {
		return p // no disk to spill to: the plan refuses the run as it is
	}
	if s := planMemory(cfg, ds); s.Total < p.Total {
		s.Spill = cfg.Spill
		return s
	}
	return p
}

// spillDir is where the run spills: Config.Spill, "" for auto (which
// Run resolves before anything is built; a run made otherwise keeps all
// in memory).
func (c Config) spillDir() string {
	if c.Spill == SpillAuto {
		return ""
	}
	return c.Spill
}

// spilled is which of its arrays a run spills (Config.Spill): the
// landmark hop counts its input's views read, the ranking sources' BFS
// rows, the evaluation embeddings (a float32 chunked evaluation on the
// sampled path: Built.spillEmbeddings), the τ sample's faithfulness
// queries' BFS rows (the sampled path).
type spilled struct{ hops, rank, emb, queries bool }

// spills is what a run of cfg on n nodes would spill.
func spills(cfg Config, n int) spilled {
	sampled := cfg.Distances != DistExact
	return spilled{
		hops:    cfg.Position.Kind == features.PosLandmark && viewInputs(cfg, n),
		rank:    cfg.DistanceLoss == objective.DistanceRank && cfg.Variant.MSE() && sampled,
		emb:     chunkedFloat32(cfg, n) && sampled,
		queries: sampled,
	}
}

// tauQueries is how many faithfulness queries the τ sample of cfg keeps
// (their rows N × 2 B each) on graphs of at most n nodes.
func tauQueries(cfg Config, n int) int64 { return int64(min(cfg.TauSources, eval.TauRows(n))) }

// chunkedFloat32 reports whether a run of cfg on n nodes evaluates in
// chunks of nodes with float32 embeddings (Built.float32Embeddings: not
// with a Laplacian input's sign reset).
func chunkedFloat32(cfg Config, n int) bool {
	return cfg.BatchSize > 0 && n >= ChunkedInferenceNodes && cfg.DType == Float32 && !(cfg.Variant.Hash() && cfg.Position.Kind == features.PosLap)
}

// spillDisk lists what a run of cfg on n nodes spills and the most disk
// its files take at once: the landmark hop counts twice while their
// column file is transposed, later the hop counts, the ranking rows and
// an evaluation's embeddings together.
func spillDisk(cfg Config, n int) (what []string, disk int64) {
	sp := spills(cfg, n)
	var h, r, e, q int64
	if sp.hops {
		what = append(what, fmt.Sprintf("the landmark hop counts (N × %d × 2 B)", cfg.Position.K))
		h = int64(cfg.Position.K) * int64(n) * 2
	}
	if sp.rank {
		what = append(what, fmt.Sprintf("the %d ranking sources' BFS rows", cfg.MSESources))
		r = int64(cfg.MSESources) * int64(n) * 2
	}
	if sp.emb {
		what = append(what, fmt.Sprintf("the evaluation embeddings (N × %d × 4 B, at every evaluation)", cfg.ModelConfig.Out))
		e = int64(cfg.ModelConfig.Out) * int64(n) * 4
	}
	if sp.queries {
		what = append(what, fmt.Sprintf("the %d τ faithfulness queries' BFS rows", tauQueries(cfg, n)))
		q = tauQueries(cfg, n) * int64(n) * 2
	}
	return what, max(2*h+q, h+r+e+q)
}

// freeBytes is what an unprivileged process may still write in dir's
// file system (-1 when statfs fails), and whether that is a tmpfs. A
// directory that does not exist yet is taken at its nearest parent that
// does (NewSpill makes it there).
func freeBytes(dir string) (int64, bool) {
	for {
		if _, err := os.Stat(dir); err == nil || dir == "/" || dir == "." {
			break
		}
		dir = filepath.Dir(dir)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1, false
	}
	return int64(st.Bavail) * st.Bsize, st.Type == tmpfsMagic
}

// checkSpill refuses a spill whose files would not fit its directory's
// free space.
func checkSpill(cfg Config, n int) error {
	_, need := spillDisk(cfg, n)
	if free, _ := freeBytes(cfg.Spill); free >= 0 && need > free {
		return fmt.Errorf("--spill %s: the run's spill files need up to %s, and its file system has %s free (give --spill a directory with room, or --spill off)", cfg.Spill, FormatBytes(need), FormatBytes(free))
	}
	return nil
}

// spillNote says what a run spills, and where, for its log.
func spillNote(cfg Config, plan MemoryPlan, n int) string {
	why := "--spill " + cfg.Spill
	if plan.Spill != "" {
		why = fmt.Sprintf("--spill auto (in memory the run would exceed --max-memory %s)", FormatBytes(cfg.MaxMemory))
	}
	what, disk := spillDisk(cfg, n)
	if len(what) == 0 {
		return why + ": this run has nothing to spill (only a large run's landmark hop counts, ranking sources' rows, chunked float32 embeddings and sampled τ queries' rows go to disk); it keeps everything in memory"
	}
	mem := ""
	if _, tmpfs := freeBytes(cfg.Spill); tmpfs {
		mem = "; it is a tmpfs, whose files are memory: the spill saves none"
	}
	return fmt.Sprintf("%s: %s go to unlinked files in %s (up to %s of disk, read back by pread; the same numbers)%s", why, strings.Join(what, " and "), cfg.Spill, FormatBytes(disk), mem)
}
