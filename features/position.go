package features

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Position names the positional input that the hash and both variants
// concatenate to the node features: the paper's hash vector, or an encoding
// computed from the graph's message-passing edges. The zero Position is the
// hash, so a configuration without one means the paper's input.
//
// It is text-marshalled in its flag form ("hash", "lap:16"), so JSON and
// YAML hold the string a user types; with `json:",omitzero"` the hash is
// left out, as an empty string was before the type existed.
type Position struct {
	Kind string // PosHash, PosLap, PosRW or PosLandmark
	K    int    // width: eigenvectors, walk lengths or landmarks (0 for the hash)
}

// The positional inputs.
const (
	PosHash     = "hash"     // murmur3 hash vectors (the paper's; --hash-dim wide)
	PosLap      = "lap"      // Laplacian eigenvectors of the K smallest non-zero eigenvalues
	PosRW       = "rw"       // random-walk return probabilities after 1..K steps
	PosLandmark = "landmark" // 1/(1+d) to K seeded landmark nodes (0 when unreachable)
)

// MaxPositionK bounds an encoding's width (the memory plan counts N·K).
const MaxPositionK = 1024

// ParsePosition reads "hash", "lap:K", "rw:K" or "landmark:L"; "" is the
// hash. The hash is returned as the zero Position.
func ParsePosition(s string) (Position, error) {
	if s == "" || s == PosHash {
		return Position{}, nil
	}
	kind, ks, ok := strings.Cut(s, ":")
	switch kind {
	case PosLap, PosRW, PosLandmark:
	default:
		return Position{}, fmt.Errorf("unknown positional input %q (valid: hash, lap:K, rw:K, landmark:L)", s)
	}
	if !ok {
		return Position{}, fmt.Errorf("positional input %q needs a width, e.g. %s:16", s, kind)
	}
	k, err := strconv.Atoi(ks)
	if err != nil || k < 1 || k > MaxPositionK {
		return Position{}, fmt.Errorf("positional input %q: the width must be an integer in 1…%d", s, MaxPositionK)
	}
	return Position{Kind: kind, K: k}, nil
}

// String is the flag form ("hash", "lap:16").
func (p Position) String() string {
	if p.Kind == PosHash || p.Kind == "" {
		return PosHash
	}
	return fmt.Sprintf("%s:%d", p.Kind, p.K)
}

// IsHash reports whether p is the paper's hash input.
func (p Position) IsHash() bool { return p.Kind == PosHash || p.Kind == "" }

// IsZero reports whether p is the hash (the zero value's meaning), so
// `omitzero` leaves it out of JSON.
func (p Position) IsZero() bool { return p.IsHash() }

// MarshalText writes the flag form (String).
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads the flag form (ParsePosition): "" and "hash" give the
// zero Position.
func (p *Position) UnmarshalText(b []byte) error {
	q, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// Inductive reports whether a new node's input can be computed without the
// graph it joins: true only for the hash (a function of the node id). The
// graph encodings change when the graph grows.
func (p Position) Inductive() bool { return p.IsHash() }

// EncodingInfo describes how one graph's encoding was computed.
type EncodingInfo struct {
	Method string `json:"method"` // "dense", "lanczos", "exact", "walks", "bfs"
	// MaxResidual is max ‖Lv − λv‖ over the eigenvectors (lap).
	MaxResidual float64 `json:"max_residual,omitempty"`
	// Eigenvalues of the largest component's kept eigenvectors (lap).
	Eigenvalues []float64 `json:"eigenvalues,omitempty"`
	// Walks per node and the bound 1/(2√walks) on each entry's standard
	// error (rw, estimated).
	Walks     int     `json:"walks,omitempty"`
	StdErrMax float64 `json:"std_err_max,omitempty"`
	Landmarks []int   `json:"landmarks,omitempty"` // node indices (landmark)
}

// Encode computes p's encoding of one graph with adjacency a: a row-major
// a.N × p.K matrix. seed and graph choose the seeded streams (landmarks,
// walks, start vectors), so a run's encoding is reproducible. workers ≤ 0
// means GOMAXPROCS; the result never depends on it. It panics for the hash
// (which HashVectors computes from node ids).
func Encode(p Position, a *data.Adj, seed uint64, graph int, workers int) (*Encoding, EncodingInfo, error) {
	switch p.Kind {
	case PosLap:
		v, info, err := LapPE(a, p.K, stream(seed, "lap", graph))
		if err != nil {
			return nil, info, err
		}
		return valuesEncoding(v, a.N, p.K), info, nil
	case PosRW:
		v, info := RWPE(a, p.K, seed, graph, workers)
		return valuesEncoding(v, a.N, p.K), info, nil
	case PosLandmark:
		e, info := LandmarkPE(a, p.K, stream(seed, "landmark", graph), workers)
		return e, info, nil
	}
	panic(fmt.Sprintf("features: Encode: %q is not a graph encoding", p.Kind))
}

// stream is the seeded stream called name for one graph: engine.Stream's
// "position/NAME/GRAPH".
func stream(seed uint64, name string, graph int) *rand.Rand {
	return engine.Stream(seed, fmt.Sprintf("position/%s/%d", name, graph))
}

// LandmarkPE returns 1/(1+d(v, ℓ_j)) for L landmarks ℓ_j drawn uniformly
// without replacement by rng (every node when L ≥ N; the columns beyond N
// are 0), 0 when ℓ_j is unreachable from v, held as the hop counts (N × L
// × 2 bytes; Encoding.Row makes the values). The BFS rows come from
// data.Adj.BFSRows (another L·N·2 bytes of scratch, transposed into the
// encoding's row-major counts). O(L·(N+E)).
func LandmarkPE(a *data.Adj, l int, rng *rand.Rand, workers int) (*Encoding, EncodingInfo) {
	n := a.N
	marks := slices.Clone(rng.Perm(n)[:min(l, n)]) // not the whole permutation (8 B a node)
	rows := make([]uint16, len(marks)*n)
	a.BFSRows(marks, 0, rows, workers)
	return LandmarkFromRows(n, l, marks, rows)
}

// LandmarkMarks returns the landmarks Encode draws for graph graph (of n
// nodes) of a run seeded seed with position landmark:l, so that their BFS
// rows can be computed elsewhere (ignn prepare --shard, issue 37).
func LandmarkMarks(n, l int, seed uint64, graph int) []int {
	return slices.Clone(stream(seed, "landmark", graph).Perm(n)[:min(l, n)])
}

// LandmarkFromRows is LandmarkPE's encoding made from BFS rows computed
// elsewhere: rows[j·n:(j+1)·n] are the hop counts from marks[j]
// (data.Adj.BFSRows). The same encoding, bit for bit, as LandmarkPE's.
func LandmarkFromRows(n, l int, marks []int, rows []uint16) (*Encoding, EncodingInfo) {
	m := len(marks)
	hops := make([]uint16, n*m)
	transposeHops(hops, rows, n, m)
	return &Encoding{N: n, K: l, hops: hops, m: m}, EncodingInfo{Method: "bfs", Landmarks: marks}
}

// LandmarkSpilled is LandmarkFromRows with the hop counts in a file in
// dir (data.Spill) instead of the heap: they are transposed into it a
// block of nodes at a time, so the row-major counts are never held whole
// (issue 37: N × L × 2 B, 12.8 GB at 10⁸ nodes). Rows read through it
// are the same as LandmarkFromRows's, bit for bit.
func LandmarkSpilled(dir string, n, l int, marks []int, rows []uint16) (*Encoding, EncodingInfo, error) {
	info := EncodingInfo{Method: "bfs", Landmarks: marks}
	e, err := spillTransposed(dir, n, l, len(marks), transposeBlock, func(j, lo, hi int, dst []uint16) {
		copy(dst, rows[j*n+lo:j*n+hi])
	})
	return e, info, err
}

// LandmarkChunk is how many landmarks' BFS rows LandmarkBFSSpilled holds
// at a time.
const LandmarkChunk = 8

// spillReadBlock is how many nodes LandmarkBFSSpilled's transposition
// reads of every landmark's column at a time (32 KB a read).
const spillReadBlock = 16384

// LandmarkBFSSpilled is LandmarkPE's encoding of graph a from landmarks
// marks (LandmarkMarks), spilled into dir, without ever holding all the
// BFS rows: LandmarkChunk landmarks' rows at a time go to a column file
// (landmark-major), which is then read back a block of nodes at a time and
// transposed into the node-major spill (LandmarkSpilled). Memory: the
// chunk's rows (LandmarkChunk × N × 2 B) instead of L × N × 2 B (12.8 GB at
// 10⁸ nodes); disk: twice the counts while the column file lives. The
// same encoding, bit for bit.
func LandmarkBFSSpilled(dir string, a *data.Adj, l int, marks []int, workers int) (*Encoding, EncodingInfo, error) {
	n, m := a.N, len(marks)
	info := EncodingInfo{Method: "bfs", Landmarks: marks}
	cols, err := data.NewSpill[uint16](dir, m*n, 1)
	if err != nil {
		return nil, info, err
	}
	defer cols.Close()
	rows := make([]uint16, min(m, LandmarkChunk)*n)
	for lo := 0; lo < m; lo += LandmarkChunk {
		hi := min(lo+LandmarkChunk, m)
		a.BFSRows(marks[lo:hi], 0, rows, workers)
		if err := cols.Append(rows[:(hi-lo)*n]); err != nil {
			return nil, info, err
		}
	}
	rows = nil
	e, err := spillTransposed(dir, n, l, m, spillReadBlock, func(j, lo, hi int, dst []uint16) {
		cols.Block(j*n+lo, j*n+hi, dst)
	})
	return e, info, err
}

// spillTransposed writes the node-major hop counts of m landmarks (n
// nodes) into a new spill in dir, block nodes at a time: col(j, lo, hi,
// dst) fills dst with landmark j's counts of nodes [lo, hi).
func spillTransposed(dir string, n, l, m, block int, col func(j, lo, hi int, dst []uint16)) (*Encoding, error) {
	s, err := data.NewSpill[uint16](dir, n, m)
	if err != nil {
		return nil, err
	}
	out, seg := make([]uint16, block*m), make([]uint16, block)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		b := out[:(hi-lo)*m]
		for j := 0; j < m; j++ {
			col(j, lo, hi, seg[:hi-lo])
			for v, d := range seg[:hi-lo] {
				b[v*m+j] = d
			}
		}
		if err := s.Append(b); err != nil {
			s.Close()
			return nil, err
		}
	}
	return &Encoding{N: n, K: l, m: m, spill: s}, nil
}

// transposeBlock is how many nodes transposeHops moves at a time: their
// m hop counts (m × 2 B each) stay in cache while every row is read.
const transposeBlock = 2048

// transposeHops writes the m rows of n hop counts (rows[j·n + v]) as n
// rows of m (hops[v·m + j]), a block of nodes at a time, so the writes of
// one block stay in cache instead of striding over all N·m entries per
// landmark (BenchmarkLandmarkTranspose, 2·10⁶ nodes × 64: 3.4 s → 0.49 s).
func transposeHops(hops, rows []uint16, n, m int) {
	for lo := 0; lo < n; lo += transposeBlock {
		hi := min(lo+transposeBlock, n)
		for j := 0; j < m; j++ {
			for v, d := range rows[j*n+lo : j*n+hi] {
				hops[(lo+v)*m+j] = d
			}
		}
	}
}
