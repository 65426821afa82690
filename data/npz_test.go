package data

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNPZRoundTrip: float64, float32 and uint16 arrays (one empty) come back
// as written; a wrong checksum is named.
func TestNPZRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.npz")
	in := []NPZArray{
		{Name: "f8", Shape: []int{2, 2}, Data: []float64{1, -2.5, math.Pi, 0}},
		{Name: "f4", Shape: []int{3}, Data: []float64{0.5, -1, 3}, F32: true},
		{Name: "u2", Shape: []int{4}, U16: []uint16{0, 1, 65535, 7}},
		{Name: "empty", Shape: []int{0}, U16: []uint16{}},
	}
	sum, err := WriteNPZ(path, in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ReadNPZ(path, sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range in {
		b := out[a.Name]
		if !reflect.DeepEqual(a.Shape, b.Shape) || !reflect.DeepEqual(a.U16, b.U16) || (a.U16 == nil && !reflect.DeepEqual(a.Data, b.Data)) {
			t.Fatalf("%s: wrote %+v, read %+v", a.Name, a, b)
		}
	}
	if _, err := ReadNPZ(path, strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "corrupted") {
		t.Fatalf("a wrong checksum: %v", err)
	}
}
