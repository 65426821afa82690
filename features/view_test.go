package features

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// TestViewsEqualStored: on a union of three graphs with attributes (one
// reaching few landmarks, so rows with unreachable columns occur), the
// input Build views and every skip block SkipBlocks views (as they are,
// standardised, the cone, both for auto) have the stored blocks' float32
// rows bit for bit, whether read row by row, by LoadRows on two workers'
// ranges, stored by Materialise, or summed into the principal map.
func TestViewsEqualStored(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var gs []*data.Graph
	var encs []*Encoding
	for gi, n := range []int{40, 9, 25} {
		var edges [][2]int32
		for i := 1; i < n; i++ {
			if gi != 1 || i%3 != 0 { // graph 1 in pieces: unreachable landmarks
				edges = append(edges, [2]int32{int32(rng.IntN(i)), int32(i)})
			}
		}
		g, err := data.NewGraph("g", n, edges)
		if err != nil {
			t.Fatal(err)
		}
		g.XDim = 2
		for range 2 * n {
			g.X = append(g.X, rng.Float64())
		}
		gs = append(gs, g)
		e, _ := LandmarkPE(data.NewAdj(n, edges), 6, rng, 1)
		encs = append(encs, e)
	}
	ds := &data.Dataset{Graphs: gs}
	opt := Options{Float32: true, Encodings: encs, EncodingDim: 6}
	stored, err := Build(ds, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.View = true
	viewed, err := Build(ds, opt)
	if err != nil {
		t.Fatal(err)
	}
	if viewed.View == nil || viewed.Dense32 != nil {
		t.Fatal("Build stored a view")
	}
	if viewed.ViewAhead == nil { // called by every LoadRows below, on every graph's rows
		t.Fatal("the landmark view has no prefetch (ViewAhead)")
	}
	sameRows(t, "input", stored, viewed)
	starts := []int{0, 40, 49, 74}
	read := EncodingRows(encs, starts[:3])
	for _, mode := range []SkipPolar{SkipPolarOff, SkipPolarOn, SkipPolarAuto} {
		for _, std := range []bool{false, true} {
			sb, sp := SkipBlocks(read, EncodingAhead(encs, starts[:3]), 74, 6, starts, mode, std, true, false)
			vb, vp := SkipBlocks(read, EncodingAhead(encs, starts[:3]), 74, 6, starts, mode, std, true, true)
			if vb.ViewAhead == nil {
				t.Fatalf("mode %s: the skip view has no prefetch", mode)
			}
			sameRows(t, "skip "+mode.String(), sb, vb)
			if (sp == nil) != (vp == nil) {
				t.Fatalf("mode %s: stored cone %v, viewed %v", mode, sp != nil, vp != nil)
			}
			if sp != nil {
				sameRows(t, "cone", sp, vp)
			}
		}
	}
}

// sameRows compares a view with stored float32 rows every way it is read.
func sameRows(t *testing.T, what string, stored, view *engine.Features) {
	t.Helper()
	if view.View == nil {
		t.Fatalf("%s: not a view", what)
	}
	d := stored.DenseDim
	row := make([]float32, d)
	scratch := make([]float64, view.ViewScratch)
	for r := range stored.N {
		view.View(r, row, scratch)
		if !slices.Equal(row, stored.Dense32[r*d:(r+1)*d]) {
			t.Fatalf("%s: row %d = %v, stored %v", what, r, row, stored.Dense32[r*d:(r+1)*d])
		}
	}
	w1 := PrincipalRows(view.Rows(), view.N, d, 2)
	if w0 := PrincipalMap(stored.Dense32, stored.N, d, 2); !slices.Equal(w0, w1) {
		t.Fatalf("%s: principal map %v, from the view %v", what, w1, w0)
	}
	rows := make([]int, 9000) // every row many times, in reverse: more than one worker's range
	for i := range rows {
		rows[i] = stored.N - 1 - i%stored.N
	}
	a, b := engine.NewBatchFeatures(stored, len(rows)+3), engine.NewBatchFeatures(view, len(rows)+3)
	a.LoadRows(stored, rows)
	b.LoadRows(view, rows)
	if !slices.Equal(a.Dense32, b.Dense32) {
		t.Fatalf("%s: LoadRows from the view differs", what)
	}
	m := &engine.Features{N: view.N, DenseDim: d, View: view.View, ViewScratch: view.ViewScratch}
	m.Materialise()
	if m.View != nil || !slices.Equal(m.Dense32, stored.Dense32) {
		t.Fatalf("%s: the materialised view differs", what)
	}
}

// TestTransposeHops: the blocked transpose equals the entry-by-entry one,
// for sizes around and across the block.
func TestTransposeHops(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 5, transposeBlock - 1, transposeBlock, 2*transposeBlock + 3} {
		for _, m := range []int{1, 3, 64} {
			rows := make([]uint16, n*m)
			for i := range rows {
				rows[i] = uint16(rng.IntN(1 << 16))
			}
			want := make([]uint16, n*m)
			for j := 0; j < m; j++ {
				for v := 0; v < n; v++ {
					want[v*m+j] = rows[j*n+v]
				}
			}
			got := make([]uint16, n*m)
			transposeHops(got, rows, n, m)
			if !slices.Equal(got, want) {
				t.Fatalf("n %d, m %d: the blocked transpose differs", n, m)
			}
		}
	}
}
