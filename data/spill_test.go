package data

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestSpillRoundTrip: rows appended in uneven parts read back the same
// through Row, Block and At; the file is gone from the directory at once;
// appending past the end or a partial row is an error.
func TestSpillRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	const rows, cols = 37, 5
	v := make([]uint16, rows*cols)
	for k := range v {
		v[k] = uint16(k*7919 + 3) // every byte pattern differs
	}
	s, err := NewSpill[uint16](dir, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, part := range [][2]int{{0, 3}, {3, 4}, {4, 20}, {20, 37}} {
		if s.Full() {
			t.Fatal("full before every row was appended")
		}
		if err := s.Append(v[part[0]*cols : part[1]*cols]); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Full() {
		t.Fatal("not full after every row")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("the spill left %d entries in its directory", len(ents))
	}
	buf := make([]uint16, rows*cols)
	for i := range rows {
		if got := s.Row(i, buf); !slices.Equal(got, v[i*cols:(i+1)*cols]) {
			t.Fatalf("row %d: %v, want %v", i, got, v[i*cols:(i+1)*cols])
		}
		for j := range cols {
			if got := s.At(i, j); got != v[i*cols+j] {
				t.Fatalf("(%d, %d): %d, want %d", i, j, got, v[i*cols+j])
			}
		}
	}
	if got := s.Block(5, 30, buf); !slices.Equal(got, v[5*cols:30*cols]) {
		t.Fatal("Block(5, 30) differs from the rows appended")
	}
	if err := s.Append(v[:cols]); err == nil || !strings.Contains(err.Error(), "37 rows") {
		t.Fatalf("appending past the end: %v", err)
	}
	t2, _ := NewSpill[uint16](dir, 2, 3)
	defer t2.Close()
	if err := t2.Append(make([]uint16, 4)); err == nil {
		t.Fatal("a partial row was accepted")
	}
}

// TestSpillBadDirectory: a spill directory that cannot be made is an
// error naming it.
func TestSpillBadDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewSpill[uint16](filepath.Join(file, "sub"), 1, 1)
	if err == nil || !strings.Contains(err.Error(), "spill directory") || !strings.Contains(err.Error(), file) {
		t.Fatalf("spill under a file: %v", err)
	}
}

// TestSpillFloat32Set: float32 rows written by Set in any order read back
// bit for bit (NaN payloads and signed zeros included); a row of the wrong
// width or out of range is an error.
func TestSpillFloat32Set(t *testing.T) {
	s, err := NewSpill[float32](t.TempDir(), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := make([]float32, 15)
	for k := range want {
		want[k] = float32(k)*1.25 - 7
	}
	want[4], want[9] = float32(math.Copysign(0, -1)), math.Float32frombits(0x7fc00123)
	for _, i := range []int{3, 0, 4, 1, 2} {
		if err := s.Set(i, want[i*3:(i+1)*3]); err != nil {
			t.Fatal(err)
		}
	}
	got := s.Block(0, 5, make([]float32, 15))
	for k := range want {
		if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
			t.Fatalf("entry %d: %v, want %v", k, got[k], want[k])
		}
	}
	if s.Set(5, want[:3]) == nil || s.Set(0, want[:2]) == nil {
		t.Fatal("a row out of range or of the wrong width was accepted")
	}
}

// TestSpillWillNeed: a spill asks the kernel to read it ahead only when it
// fits half the available memory (on Linux, where it can ask), and its
// rows read the same after asking.
func TestSpillWillNeed(t *testing.T) {
	s, err := NewSpill[uint16](t.TempDir(), 300, 7)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := make([]uint16, 300*7)
	for i := range v {
		v[i] = uint16(i * 31)
	}
	if err := s.Append(v); err != nil {
		t.Fatal(err)
	}
	defer func(f func() int64) { memAvailable = f }(memAvailable)
	for _, c := range []struct {
		avail int64
		want  bool
	}{{1 << 30, runtime.GOOS == "linux"}, {2 * 300 * 7 * 2, runtime.GOOS == "linux"}, {2*300*7*2 - 2, false}, {-1, false}} {
		memAvailable = func() int64 { return c.avail }
		if got := s.WillNeed(); got != c.want {
			t.Errorf("available %d: WillNeed %v, want %v", c.avail, got, c.want)
		}
		if got := s.Block(0, 300, make([]uint16, 300*7)); !slices.Equal(got, v) {
			t.Fatalf("available %d: the rows differ after WillNeed", c.avail)
		}
	}
}

// TestMemInfo: on Linux MemTotal and MemAvailable read as positive byte
// counts with MemAvailable ≤ MemTotal; an unknown field is −1.
func TestMemInfo(t *testing.T) {
	if MemInfo("NoSuchField") != -1 {
		t.Error("an unknown /proc/meminfo field read as a size")
	}
	if runtime.GOOS != "linux" {
		return
	}
	total, avail := MemInfo("MemTotal"), MemInfo("MemAvailable")
	if total <= 0 || avail <= 0 || avail > total || total%1024 != 0 {
		t.Errorf("MemTotal %d, MemAvailable %d bytes", total, avail)
	}
}
