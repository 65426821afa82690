package stages

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// Input is what a run's BFS stages depend on: its prepared graphs (the
// kept graphs' union and hop source on the message-passing edges, the
// data's fingerprint) and the settings that choose the BFS roots.
type Input struct {
	Union       *data.Union
	Hops        *data.Hops // on the sampled path (exact tables need no stage)
	Fingerprint string
	Seed        uint64
	Task        data.Task
	Position    features.Position // a landmark input's landmarks are BFS roots
	TauSources  int
	TauPairs    int
	Workers     int
}

// stageJobs is the BFS work parts divide: the landmarks of every kept
// graph in order (flat: graph and index of each), the τ sample's plan and
// the validation sample's.
type stageJobs struct {
	marks [][]int
	flat  [][2]int
	tau   *eval.TauPlan
	val   *eval.ValPlan
}

// Parts is the BFS work read back from the parts.
type Parts struct {
	Marks     [][]int    // the landmarks per kept graph (nil without a landmark input)
	Landmarks [][]uint16 // per graph, len(Marks[g]) rows of its node count
	Tau       *eval.PairSample
	Queries   []eval.Query
	Val       *eval.ValSample
}

// jobs lists in's BFS work.
func jobs(in Input) *stageJobs {
	j := &stageJobs{}
	if in.Position.Kind == features.PosLandmark {
		for g, gr := range in.Union.Graphs {
			m := features.LandmarkMarks(gr.N, in.Position.K, in.Seed, g)
			j.marks = append(j.marks, m)
			for k := range m {
				j.flat = append(j.flat, [2]int{g, k})
			}
		}
	}
	j.tau = eval.PlanTauSample(in.Union, in.TauSources, in.TauPairs, in.Seed)
	j.val = eval.PlanValSample(in.Union, j.tau.Sample, in.TauSources, in.TauPairs, in.Seed)
	return j
}

// stagesVersion is the parts' format: 2 added the validation sample.
const stagesVersion = 2

// span is part i of n of total consecutive jobs.
func span(i, n, total int) (int, int) {
	return int(int64(i) * int64(total) / int64(n)), int(int64(i+1) * int64(total) / int64(n))
}

// stageKey is a checksum of what the BFS rows depend on: the data, the
// seed and task (the splits' message-passing edges), the landmarks and the
// τ sample's size; as two exact 32-bit halves.
func stageKey(in Input) (float64, float64) {
	h := fnv.New64a()
	fmt.Fprintf(h, "ignn bfs stages v1|%s|%d|%s|%s|%d|%d", in.Fingerprint, in.Seed, in.Task, in.Position, in.TauSources, in.TauPairs)
	s := h.Sum64()
	return float64(s & 0xffffffff), float64(s >> 32)
}

// PartPath is part i of n of the BFS stages in dir.
func PartPath(dir string, i, n int) string {
	return filepath.Join(dir, fmt.Sprintf("bfs.shard-%d-of-%d.npz", i, n))
}

// WritePart computes part i of n of in's BFS stages and writes it
// atomically to PartPath(dir, i, n): consecutive ranges of the landmark
// BFS and of the τ and validation sources. It returns the path and what
// the part holds.
func WritePart(in Input, dir string, i, n int) (string, string, error) {
	if n < 1 || i < 0 || i >= n {
		return "", "", fmt.Errorf("part %d of %d: want 0 ≤ I < N", i, n)
	}
	jobs := jobs(in)
	u := in.Union
	lo, hi := span(i, n, len(jobs.flat))
	var marks []uint16
	for a := lo; a < hi; {
		g := jobs.flat[a][0]
		b := a
		for b < hi && jobs.flat[b][0] == g {
			b++
		}
		nn := u.Graphs[g].N
		rows := make([]uint16, (b-a)*nn)
		in.Hops.Adjs[g].BFSRows(jobs.marks[g][jobs.flat[a][1]:jobs.flat[a][1]+b-a], 0, rows, in.Workers)
		if marks == nil { // one graph's rows: kept as they are, not copied
			marks = rows
		} else {
			marks = append(marks, rows...)
		}
		a = b
	}
	tau := jobs.tau
	from, to := span(i, n, tau.Sample.Sources)
	plo, phi := tau.Pairs(from, to)
	d := make([]uint16, tau.Sample.Len())
	var qrows []uint16
	qs, err := tau.Fill(in.Hops, from, to, d) // held rows (no QueryRows): no error
	if err != nil {
		return "", "", err
	}
	for _, q := range qs {
		qrows = append(qrows, q.Row...)
	}
	val := jobs.val
	vf, vt := span(i, n, val.Sources())
	vlo, vhi := val.Pairs(vf, vt)
	val.Fill(in.Hops, vf, vt, val.D())
	klo, khi := stageKey(in)
	path := PartPath(dir, i, n)
	meta := []float64{stagesVersion, float64(i), float64(n), klo, khi, float64(u.N), float64(len(jobs.flat)), float64(tau.Sample.Sources), float64(lo), float64(hi), float64(from), float64(to), float64(len(qs)), float64(val.Sources()), float64(vf), float64(vt)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	if _, err := data.WriteNPZ(path, []data.NPZArray{
		{Name: "meta", Shape: []int{len(meta)}, Data: meta},
		{Name: "landmarks", Shape: []int{len(marks)}, U16: nonNil(marks)},
		{Name: "tau_d", Shape: []int{phi - plo}, U16: nonNil(d[plo:phi])},
		{Name: "queries", Shape: []int{len(qrows)}, U16: nonNil(qrows)},
		{Name: "val_d", Shape: []int{vhi - vlo}, U16: nonNil(val.D()[vlo:vhi])},
	}); err != nil {
		return "", "", err
	}
	what := fmt.Sprintf("%d of %d landmark BFS rows, %d of %d τ sources (%d pairs, %d faithfulness queries), %d of %d validation sources (%d pairs)", hi-lo, len(jobs.flat), to-from, tau.Sample.Sources, phi-plo, len(qs), vt-vf, val.Sources(), vhi-vlo)
	return path, what, nil
}

// nonNil keeps an empty array an array ('<u2' of length 0) in the archive.
func nonNil(v []uint16) []uint16 {
	if v == nil {
		return []uint16{}
	}
	return v
}

var partName = regexp.MustCompile(`^bfs\.shard-(\d+)-of-(\d+)\.npz$`)

// Read reads the parts in dir written for in's run: every part of one N
// must be there, of this data and settings. Errors name the part and the
// command that recomputes it.
func Read(in Input, dir string) (*Parts, error) {
	jobs := jobs(in)
	redo := "ignn prepare with this run's flags --out " + dir + " --shard I/N (or --slurm)"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--prepared: %w", err)
	}
	n := 0
	for _, e := range entries {
		if m := partName.FindStringSubmatch(e.Name()); m != nil {
			k, _ := strconv.Atoi(m[2])
			if n != 0 && k != n {
				return nil, fmt.Errorf("--prepared %s holds parts of %d and of %d: keep the parts of one --shards count", dir, n, k)
			}
			n = k
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("--prepared %s holds no BFS stage part (bfs.shard-I-of-N.npz): compute them with %s", dir, redo)
	}
	u, tau, val := in.Union, jobs.tau, jobs.val
	st := &Parts{Marks: jobs.marks, Tau: tau.Sample}
	for g := range jobs.marks {
		st.Landmarks = append(st.Landmarks, make([]uint16, len(jobs.marks[g])*u.Graphs[g].N))
	}
	tau.Sample.D = make([]uint16, tau.Sample.Len())
	klo, khi := stageKey(in)
	for i := range n {
		path := PartPath(dir, i, n)
		a, err := data.ReadNPZ(path, "")
		if err != nil {
			return nil, fmt.Errorf("part %d of %d: %w (compute it with %s)", i, n, err, redo)
		}
		m := a["meta"].Data
		lo, hi := span(i, n, len(jobs.flat))
		from, to := span(i, n, tau.Sample.Sources)
		plo, phi := tau.Pairs(from, to)
		vf, vt := span(i, n, val.Sources())
		vlo, vhi := val.Pairs(vf, vt)
		switch {
		case len(m) != 16 || m[0] != stagesVersion:
			return nil, fmt.Errorf("%s: not a part written by this version of ignn prepare --shard", path)
		case m[3] != klo || m[4] != khi || int(m[5]) != u.N:
			return nil, fmt.Errorf("%s: computed for another run (the data, --seed, --task, --position or the τ sample differ): recompute the parts with %s", path, redo)
		case int(m[1]) != i || int(m[2]) != n:
			return nil, fmt.Errorf("%s: holds part %d of %d", path, int(m[1]), int(m[2]))
		case int(m[8]) != lo || int(m[9]) != hi || int(m[10]) != from || int(m[11]) != to || int(m[14]) != vf || int(m[15]) != vt:
			return nil, fmt.Errorf("%s: holds other ranges than part %d of %d does (landmarks %d…%d, τ sources %d…%d)", path, i, n, int(m[8]), int(m[9]), int(m[10]), int(m[11]))
		}
		rows, d, q, vd := a["landmarks"].U16, a["tau_d"].U16, a["queries"].U16, a["val_d"].U16
		if len(d) != phi-plo || len(vd) != vhi-vlo {
			return nil, fmt.Errorf("%s: %d τ and %d validation distances for %d and %d pairs", path, len(d), len(vd), phi-plo, vhi-vlo)
		}
		copy(tau.Sample.D[plo:phi], d)
		copy(val.D()[vlo:vhi], vd)
		off := 0
		for _, f := range jobs.flat[lo:hi] {
			nn := u.Graphs[f[0]].N
			if off+nn > len(rows) {
				return nil, fmt.Errorf("%s: %d landmark hop counts, too few for landmarks %d…%d", path, len(rows), lo, hi)
			}
			copy(st.Landmarks[f[0]][f[1]*nn:(f[1]+1)*nn], rows[off:off+nn])
			off += nn
		}
		qoff := 0
		for k := from; k < to; k++ {
			if !tau.IsQuery(k) {
				continue
			}
			nn := tau.RowLen(u, k)
			if qoff+nn > len(q) {
				return nil, fmt.Errorf("%s: %d query hop counts, too few for its queries", path, len(q))
			}
			st.Queries = append(st.Queries, tau.Query(k, q[qoff:qoff+nn:qoff+nn]))
			qoff += nn
		}
		if off != len(rows) || qoff != len(q) {
			return nil, fmt.Errorf("%s: %d landmark and %d query hop counts, %d and %d expected", path, len(rows), len(q), off, qoff)
		}
	}
	st.Val = val.Finish()
	return st, nil
}
