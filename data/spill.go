package data

import (
	"fmt"
	"os"
	"unsafe"
)

// Spill is a row-major matrix of uint16 (Rows × Cols) kept in a file
// instead of the heap (issue 37: the landmark hop counts and the ranking
// BFS rows are 12.8 GB each at 10⁸ nodes). Its entries are read with
// pread, so they sit in the kernel's page cache, which the kernel may
// drop and reread, not in the process's resident memory. The file is
// unlinked as soon as it is created: nothing is left behind, even after
// kill -9, and no other process can see it. Reads are safe from many
// goroutines; writes (Append) are not.
type Spill struct {
	Rows, Cols int
	Dir        string // where the file was made
	f          *os.File
	filled     int // rows appended so far
}

// NewSpill makes an empty Rows × Cols spill in dir (created if missing),
// filled by Append. The file system must hold Rows·Cols·2 bytes.
func NewSpill(dir string, rows, cols int) (*Spill, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("data: spill directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".ignn-spill-*")
	if err != nil {
		return nil, fmt.Errorf("data: spill directory: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("data: spill file: %w", err)
	}
	return &Spill{Rows: rows, Cols: cols, Dir: dir, f: f}, nil
}

// u16Bytes is v's memory as bytes (little-endian on the machines Go runs
// ignn on; the file never leaves the process).
func u16Bytes(v []uint16) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 2*len(v))
}

// Append writes the next len(v)/Cols rows.
func (s *Spill) Append(v []uint16) error {
	if len(v)%s.Cols != 0 || s.filled+len(v)/s.Cols > s.Rows {
		return fmt.Errorf("data: spill of %d × %d: %d values after %d rows", s.Rows, s.Cols, len(v), s.filled)
	}
	if _, err := s.f.WriteAt(u16Bytes(v), int64(s.filled)*int64(s.Cols)*2); err != nil {
		return fmt.Errorf("data: writing the spill file in %s: %w", s.Dir, err)
	}
	s.filled += len(v) / s.Cols
	return nil
}

// Full reports whether every row was appended.
func (s *Spill) Full() bool { return s.filled == s.Rows }

// read fills dst from entry off on. A failed read of a file this process
// wrote and holds open is a fault of the machine (disk, file system
// full): it panics with the cause rather than return numbers that are not
// the run's.
func (s *Spill) read(dst []uint16, off int64) {
	if _, err := s.f.ReadAt(u16Bytes(dst), 2*off); err != nil {
		panic(fmt.Sprintf("data: reading the spill file in %s: %v", s.Dir, err))
	}
}

// Row reads row i into dst[:Cols] and returns it.
func (s *Spill) Row(i int, dst []uint16) []uint16 {
	dst = dst[:s.Cols]
	s.read(dst, int64(i)*int64(s.Cols))
	return dst
}

// Block reads rows [lo, hi) into dst[:(hi-lo)·Cols] and returns it.
func (s *Spill) Block(lo, hi int, dst []uint16) []uint16 {
	dst = dst[:(hi-lo)*s.Cols]
	s.read(dst, int64(lo)*int64(s.Cols))
	return dst
}

// At reads entry (i, j).
func (s *Spill) At(i, j int) uint16 {
	var v [1]uint16
	s.read(v[:], int64(i)*int64(s.Cols)+int64(j))
	return v[0]
}

// Close releases the file (its blocks go with it).
func (s *Spill) Close() error { return s.f.Close() }
