package memplan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ignn/ignn/features"
)

// Spills is which of its arrays a run spills, when it spills: the
// landmark hop counts its input's views read, the ranking sources' BFS
// rows, the evaluation embeddings (a float32 chunked evaluation on the
// sampled path), the τ sample's faithfulness queries' BFS rows (the
// sampled path).
type Spills struct{ Hops, Rank, Emb, Queries bool }

// Spills is what a run of shape s would spill.
func (s Shape) Spills() Spills {
	return Spills{
		Hops:    s.Position.Kind == features.PosLandmark && s.ViewInputs,
		Rank:    s.Rank && s.MSE && !s.Exact,
		Emb:     s.Float32Emb && !s.Exact,
		Queries: !s.Exact,
	}
}

// SpillDisk lists what a run of shape s spills and the most disk its
// files take at once: the landmark hop counts twice while their column
// file is transposed, later the hop counts, the ranking rows and an
// evaluation's embeddings together.
func (s Shape) SpillDisk() (what []string, disk int64) {
	sp := s.Spills()
	n := s.Nodes
	var h, r, e, q int64
	if sp.Hops {
		what = append(what, fmt.Sprintf("the landmark hop counts (N × %d × 2 B)", s.Position.K))
		h = int64(s.Position.K) * n * 2
	}
	if sp.Rank {
		what = append(what, fmt.Sprintf("the %d ranking sources' BFS rows", s.MSESources))
		r = int64(s.MSESources) * n * 2
	}
	if sp.Emb {
		what = append(what, fmt.Sprintf("the evaluation embeddings (N × %d × 4 B, at every evaluation)", s.ModelConfig.EmbeddingWidth()))
		e = int64(s.ModelConfig.EmbeddingWidth()) * n * 4
	}
	if sp.Queries {
		what = append(what, fmt.Sprintf("the %d τ faithfulness queries' BFS rows", s.TauQueries()))
		q = s.TauQueries() * n * 2
	}
	return what, max(2*h+q, h+r+e+q)
}

// tmpfsMagic is statfs's type of a tmpfs: its files are memory, so a
// spill there saves nothing.
const tmpfsMagic = 0x01021994

// AutoSpillDir is where --spill auto spills: the system's temporary
// directory ($TMPDIR, else /tmp), or "" when that is a tmpfs.
func AutoSpillDir() string {
	dir := os.TempDir()
	if free, tmpfs := FreeBytes(dir); free < 0 || tmpfs {
		return ""
	}
	return dir
}

// FreeBytes is what an unprivileged process may still write in dir's
// file system (-1 when statfs fails), and whether that is a tmpfs. A
// directory that does not exist yet is taken at its nearest parent that
// does (data.NewSpill makes it there).
func FreeBytes(dir string) (int64, bool) {
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

// CheckSpill refuses a spill into dir whose files would not fit its free
// space.
func (s Shape) CheckSpill(dir string) error {
	_, need := s.SpillDisk()
	if free, _ := FreeBytes(dir); free >= 0 && need > free {
		return fmt.Errorf("--spill %s: the run's spill files need up to %s, and its file system has %s free (give --spill a directory with room, or --spill off)", dir, FormatBytes(need), FormatBytes(free))
	}
	return nil
}

// SpillNote says what a run of shape s spills into dir, and why, for its
// log: --spill auto chose dir when the plan's Spill names it, because in
// memory the run would exceed limit.
func (s Shape) SpillNote(dir string, plan Plan, limit int64) string {
	why := "--spill " + dir
	if plan.Spill != "" {
		why = fmt.Sprintf("--spill auto (in memory the run would exceed --max-memory %s)", FormatBytes(limit))
	}
	what, disk := s.SpillDisk()
	if len(what) == 0 {
		return why + ": this run has nothing to spill (only a large run's landmark hop counts, ranking sources' rows, chunked float32 embeddings and sampled τ queries' rows go to disk); it keeps everything in memory"
	}
	mem := ""
	if _, tmpfs := FreeBytes(dir); tmpfs {
		mem = "; it is a tmpfs, whose files are memory: the spill saves none"
	}
	return fmt.Sprintf("%s: %s go to unlinked files in %s (up to %s of disk, read back by pread; the same numbers)%s", why, strings.Join(what, " and "), dir, FormatBytes(disk), mem)
}
