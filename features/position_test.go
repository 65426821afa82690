package features

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ignn/ignn/data"
)

func TestParsePosition(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"", "hash", true}, {"hash", "hash", true}, {"lap:16", "lap:16", true}, {"rw:8", "rw:8", true},
		{"landmark:32", "landmark:32", true}, {"lap", "", false}, {"lap:0", "", false}, {"lap:x", "", false},
		{"rw:2000", "", false}, {"pca:4", "", false},
	} {
		p, err := ParsePosition(c.in)
		if (err == nil) != c.ok || (c.ok && p.String() != c.want) {
			t.Errorf("ParsePosition(%q) = %v, %v; want %q ok=%v", c.in, p, err, c.want, c.ok)
		}
	}
}

// testGraph is a seeded caveman graph (cliques×size, rewired) plus a
// 3-node path and an isolated node: three components of different sizes.
func testGraph(t *testing.T, cliques, size int) *data.Adj {
	t.Helper()
	ds, err := data.Generate("caveman:"+itoa(cliques)+"x"+itoa(size)+":0.1", rand.New(rand.NewPCG(7, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g := ds.Graphs[0]
	n := g.N
	edges := append([][2]int32(nil), g.Edges...)
	edges = append(edges, [2]int32{int32(n), int32(n + 1)}, [2]int32{int32(n + 1), int32(n + 2)})
	return data.NewAdj(n+4, edges)
}

func itoa(i int) string {
	return string(rune('0'+i/1000%10)) + string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

func TestLandmarkAgainstBFS(t *testing.T) {
	a := testGraph(t, 10, 6)
	const l = 5
	enc, info := LandmarkPE(a, l, rand.New(rand.NewPCG(1, 2)), 2)
	out := enc.Dense()
	if len(info.Landmarks) != l {
		t.Fatalf("%d landmarks, want %d", len(info.Landmarks), l)
	}
	row := make([]uint16, a.N)
	for j, s := range info.Landmarks {
		a.BFS(s, 0, row, nil)
		for v := 0; v < a.N; v++ {
			want := 0.0
			if row[v] != data.Unreachable {
				want = 1 / (1 + float64(row[v]))
			}
			if out[v*l+j] != want {
				t.Fatalf("node %d landmark %d: %g, want %g (d = %d)", v, s, out[v*l+j], want, row[v])
			}
		}
	}
	// More landmarks than nodes: every node is one, the rest are 0.
	small := data.NewAdj(3, [][2]int32{{0, 1}, {1, 2}})
	enc, _ = LandmarkPE(small, 5, rand.New(rand.NewPCG(1, 2)), 1)
	out = enc.Dense()
	for v := 0; v < 3; v++ {
		if out[v*5+3] != 0 || out[v*5+4] != 0 {
			t.Fatalf("padding columns not 0: %v", out)
		}
	}
}

// rwDense is the reference: the diagonal of (D⁻¹A)^k by dense matrix powers.
func rwDense(a *data.Adj, k int) []float64 {
	n := a.N
	p := mat.NewDense(n, n, nil)
	for u := 0; u < n; u++ {
		nb := a.Nb[a.Off[u]:a.Off[u+1]]
		for _, v := range nb {
			p.Set(u, int(v), p.At(u, int(v))+1/float64(len(nb)))
		}
	}
	out := make([]float64, n*k)
	pow := mat.DenseCopyOf(p)
	for step := 0; step < k; step++ {
		for v := 0; v < n; v++ {
			out[v*k+step] = pow.At(v, v)
		}
		var next mat.Dense
		next.Mul(pow, p)
		pow = &next
	}
	return out
}

func TestRWPEExactAgainstMatrixPowers(t *testing.T) {
	a := testGraph(t, 8, 7)
	const k = 6
	got, info := RWPE(a, k, 1, 0, 2)
	if info.Method != "exact" {
		t.Fatalf("method %q, want exact on a small graph", info.Method)
	}
	want := rwDense(a, k)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("entry %d (node %d, step %d): %g, want %g", i, i/k, i%k+1, got[i], want[i])
		}
	}
	// Worker count never changes the numbers.
	one, _ := RWPE(a, k, 1, 0, 1)
	for i := range one {
		if one[i] != got[i] {
			t.Fatal("RWPE depends on the worker count")
		}
	}
	if _, ok := rwExact(a, k, 2, 10); ok {
		t.Fatal("a budget of 10 edge visits should make the exact path give up")
	}
}

// TestRWPEWalksWithinStatedError checks the estimate against the exact
// values: every entry within 5 standard errors √(p(1−p)/R), exact zeros
// stay zero, and the mean absolute error is below the stated bound.
func TestRWPEWalksWithinStatedError(t *testing.T) {
	a := testGraph(t, 8, 7)
	const k, walks = 6, RWWalks
	want := rwDense(a, k)
	got := rwWalks(a, k, 3, 0, 2, walks)
	var sum float64
	for i, p := range want {
		se := math.Sqrt(p * (1 - p) / walks)
		if math.Abs(got[i]-p) > 5*se+1e-12 {
			t.Fatalf("entry %d: estimate %g, exact %g, > 5 standard errors (%g)", i, got[i], p, se)
		}
		sum += math.Abs(got[i] - p)
	}
	if mae := sum / float64(len(want)); mae > 1/(2*math.Sqrt(walks)) {
		t.Fatalf("mean absolute error %g above the stated bound %g", mae, 1/(2*math.Sqrt(walks)))
	}
	again := rwWalks(a, k, 3, 0, 1, walks)
	for i := range again {
		if again[i] != got[i] {
			t.Fatal("the walk estimate depends on the worker count")
		}
	}
}

// checkLap compares the Lanczos path against the dense solver on a.
func checkLap(t *testing.T, a *data.Adj, k int) {
	t.Helper()
	dense, di, err := lapPE(a, k, rand.New(rand.NewPCG(1, 1)), a.N)
	if err != nil {
		t.Fatal(err)
	}
	lan, li, err := lapPE(a, k, rand.New(rand.NewPCG(1, 1)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if li.Method != "lanczos" || di.Method != "dense" {
		t.Fatalf("methods %q/%q", di.Method, li.Method)
	}
	if di.MaxResidual > 1e-6 || li.MaxResidual > 1e-6 {
		t.Fatalf("residuals dense %g, Lanczos %g; want ≤ 1e-6", di.MaxResidual, li.MaxResidual)
	}
	for j, v := range di.Eigenvalues {
		if math.Abs(v-li.Eigenvalues[j]) > 1e-8 {
			t.Fatalf("eigenvalue %d: dense %.12g, Lanczos %.12g", j, v, li.Eigenvalues[j])
		}
	}
	// Eigenvectors agree (same sign rule) where the eigenvalue is simple.
	ev := di.Eigenvalues
	for j := range ev {
		if (j > 0 && ev[j]-ev[j-1] < 1e-4) || (j+1 < len(ev) && ev[j+1]-ev[j] < 1e-4) {
			continue
		}
		var d float64
		for v := 0; v < a.N; v++ {
			d = math.Max(d, math.Abs(dense[v*k+j]-lan[v*k+j]))
		}
		if d > 1e-5 {
			t.Errorf("eigenvector %d (λ = %g) differs by %g", j, ev[j], d)
		}
	}
}

func TestLapPELanczosAgainstDense(t *testing.T) {
	checkLap(t, testGraph(t, 12, 8), 8)   // 100 nodes, 3 components
	checkLap(t, testGraph(t, 50, 20), 16) // 1,004 nodes
}

// TestLapPEAboveDenseLimit: a component past LapDenseLimit (1,504 nodes)
// takes Lanczos by default and its vectors are eigenvectors. (Checking it
// against the dense solver as well costs 29 s; TestLapPELanczosAgainstDense
// does that at 1,004 nodes.)
func TestLapPEAboveDenseLimit(t *testing.T) {
	a := testGraph(t, 75, 20)
	if a.N-4 <= LapDenseLimit {
		t.Fatalf("the test component (%d nodes) is not above LapDenseLimit %d", a.N-4, LapDenseLimit)
	}
	_, info, err := LapPE(a, 16, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if info.Method != "lanczos" || info.MaxResidual > 1e-6 || len(info.Eigenvalues) != 16 {
		t.Fatalf("method %q, residual %g, %d eigenvalues", info.Method, info.MaxResidual, len(info.Eigenvalues))
	}
}

func TestLapPEEigenvectors(t *testing.T) {
	a := testGraph(t, 6, 5) // 30-node caveman, a 3-node path, an isolated node
	const k = 4
	out, info, err := LapPE(a, k, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	// The 3-node path has 2 non-zero eigenvalues: column 3 is padding,
	// the isolated node's row is all zero.
	n := a.N
	for j := 0; j < k; j++ {
		if out[(n-1)*k+j] != 0 {
			t.Fatalf("isolated node has encoding %v", out[(n-1)*k:])
		}
	}
	for v := n - 4; v < n-1; v++ {
		if out[v*k+2] != 0 || out[v*k+3] != 0 || out[v*k] == 0 && out[v*k+1] == 0 {
			t.Fatalf("path node %d: %v", v, out[v*k:(v+1)*k])
		}
	}
	if info.MaxResidual > 1e-10 {
		t.Fatalf("residual %g", info.MaxResidual)
	}
	// Unit, mutually orthogonal columns on the caveman component.
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			var d float64
			for v := 0; v < n-4; v++ {
				d += out[v*k+i] * out[v*k+j]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(d-want) > 1e-10 {
				t.Fatalf("⟨v%d, v%d⟩ = %g", i, j, d)
			}
		}
	}
}

// TestLandmarkSpilledMatchesHeld: the encodings whose hop counts are in a
// spill file — transposed from rows held (LandmarkSpilled) or from BFS
// rows computed a chunk of landmarks at a time into a column file
// (LandmarkBFSSpilled) — read every row as the one that holds them, bit
// for bit, on a graph of more nodes than a transposition block, with
// unreachable nodes; landmark:K beyond the landmarks pads with zeros as
// well.
func TestLandmarkSpilledMatchesHeld(t *testing.T) {
	g, err := data.Generate("caveman:4200x4:0.1", rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	edges := append([][2]int32(nil), g.Graphs[0].Edges...)
	n := g.Graphs[0].N + 5 // isolated nodes: unreachable from every landmark
	a := data.NewAdj(n, edges)
	if n <= spillReadBlock {
		t.Fatalf("%d nodes: the test wants more than one block of %d", n, spillReadBlock)
	}
	const l, k = 9, 12
	marks := LandmarkMarks(n, l, 5, 0)
	rows := make([]uint16, l*n)
	a.BFSRows(marks, 0, rows, 2)
	held, _ := LandmarkFromRows(n, k, marks, slices.Clone(rows))
	dir := t.TempDir()
	fromRows, info, err := LandmarkSpilled(dir, n, k, marks, rows)
	if err != nil {
		t.Fatal(err)
	}
	defer fromRows.Close()
	fromBFS, info2, err := LandmarkBFSSpilled(dir, a, k, marks, 2) // 9 landmarks: two chunks, the second short
	if err != nil {
		t.Fatal(err)
	}
	defer fromBFS.Close()
	for _, c := range []struct {
		name string
		e    *Encoding
		info EncodingInfo
	}{{"LandmarkSpilled", fromRows, info}, {"LandmarkBFSSpilled", fromBFS, info2}} {
		if !c.e.Spilled() || held.Spilled() || !slices.Equal(c.info.Landmarks, marks) {
			t.Fatalf("%s: Spilled %v (held %v); landmarks %v", c.name, c.e.Spilled(), held.Spilled(), c.info.Landmarks)
		}
		want, got := held.Dense(), c.e.Dense()
		for i := range want {
			if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
				t.Fatalf("%s: entry %d (node %d): %g spilled, %g held", c.name, i, i/k, got[i], want[i])
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("the spills left %d entries in their directory", len(ents))
	}
}
