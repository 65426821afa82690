package features

import (
	"bytes"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestMurmur3Vectors pins the hash function itself to published
// MurmurHash3_x86_32 test vectors (seed 0).
func TestMurmur3Vectors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint32
	}{
		{"", 0},
		{"hello", 0x248bfa47},
		{"The quick brown fox jumps over the lazy dog", 0x2e4ff723},
	} {
		if got := sum32([]byte(c.in)); got != c.want { // murmur3's, through the race build's path under -race
			t.Errorf("murmur3(%q) = %08x, want %08x", c.in, got, c.want)
		}
	}
}

// TestHashGolden pins the key encoding and scaling. The expected values were
// computed independently with a from-scratch Python MurmurHash3_x86_32 over
// struct.pack('<QI', node, k), signed, divided by 2**31 − 1.
func TestHashGolden(t *testing.T) {
	for _, c := range []struct {
		node uint64
		k    uint32
		want float64
	}{
		{0, 0, -0.3027014384524438},
		{0, 1, 0.747917791245467},
		{1, 0, -0.3406527328028589},
		{399, 31, 0.01617479278527889},
		{1 << 40, 7, 0.5901920956513808},
	} {
		if got := HashComponent(c.node, c.k); got != c.want {
			t.Errorf("H(%d ⊕ %d) = %.17g, want %.17g", c.node, c.k, got, c.want)
		}
	}
	key := HashKey(0x0102030405060708, 0x0a0b0c0d)
	want := []byte{8, 7, 6, 5, 4, 3, 2, 1, 0x0d, 0x0c, 0x0b, 0x0a}
	if !bytes.Equal(key[:], want) {
		t.Errorf("key bytes % x, want % x", key, want)
	}
	// The encoding is unambiguous where decimal concatenation is not:
	// ("1","11") and ("11","1") give different keys.
	if HashKey(1, 11) == HashKey(11, 1) {
		t.Error("keys collide")
	}
}

func TestBuildConcatenates(t *testing.T) {
	g, _ := data.NewGraph("g", 3, [][2]int32{{0, 1}, {1, 2}})
	g.X, g.XDim = []float64{1, 2, 3, 4, 5, 6}, 2
	g.IDs = []uint64{5, 6, 7}
	f, err := Build(&data.Dataset{Graphs: []*data.Graph{g}}, Options{Hash: true, HashDim: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f.DenseDim != 5 || f.Dense[5] != 3 || f.Dense[7] != HashComponent(6, 0) || f.Dense[14] != HashComponent(7, 2) {
		t.Errorf("features %v", f.Dense)
	}
	if _, err := Build(&data.Dataset{Graphs: []*data.Graph{g}}, Options{Hash: true}); err == nil {
		t.Error("hash dimension 0 accepted")
	}
}
