package data

import (
	"fmt"
	"os"
	"unsafe"
)

// Spill is a row-major matrix of uint16 or float32 (Rows × Cols) kept in
// a file instead of the heap (issue 37: the landmark hop counts, the
// ranking BFS rows and the evaluation embeddings are 12.8 GB each at 10⁸
// nodes). Its entries are read with
// pread, so they sit in the kernel's page cache, which the kernel may
// drop and reread, not in the process's resident memory. The file is
// unlinked as soon as it is created: nothing is left behind, even after
// kill -9, and no other process can see it; Close frees its blocks (so
// does the collector, through os.File's finalizer, once nothing refers to
// the Spill). Reads are safe from many goroutines; writes (Append, Set)
// are not.
type Spill[T uint16 | float32] struct {
	Rows, Cols int
	Dir        string // where the file was made
	f          *os.File
	filled     int // rows appended so far
}

// NewSpill makes an empty Rows × Cols spill in dir (created if missing),
// filled by Append. The file system must hold Rows·Cols·2 bytes.
func NewSpill[T uint16 | float32](dir string, rows, cols int) (*Spill[T], error) {
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
	return &Spill[T]{Rows: rows, Cols: cols, Dir: dir, f: f}, nil
}

// asBytes is v's memory as bytes (in the machine's byte order: the file
// never leaves the process).
func asBytes[T uint16 | float32](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), int(unsafe.Sizeof(v[0]))*len(v))
}

// size is the bytes of one entry.
func (s *Spill[T]) size() int64 {
	var v T
	return int64(unsafe.Sizeof(v))
}

// Append writes the next len(v)/Cols rows.
func (s *Spill[T]) Append(v []T) error {
	if len(v)%s.Cols != 0 || s.filled+len(v)/s.Cols > s.Rows {
		return fmt.Errorf("data: spill of %d × %d: %d values after %d rows", s.Rows, s.Cols, len(v), s.filled)
	}
	if err := s.write(v, s.filled); err != nil {
		return err
	}
	s.filled += len(v) / s.Cols
	return nil
}

// Set writes row i (any order; Full counts Append's rows only).
func (s *Spill[T]) Set(i int, v []T) error {
	if len(v) != s.Cols || i < 0 || i >= s.Rows {
		return fmt.Errorf("data: spill of %d × %d: row %d of %d values", s.Rows, s.Cols, i, len(v))
	}
	return s.write(v, i)
}

// SetRows writes len(v)/Cols consecutive rows from row first on.
func (s *Spill[T]) SetRows(first int, v []T) error {
	if len(v)%s.Cols != 0 || first < 0 || first+len(v)/s.Cols > s.Rows {
		return fmt.Errorf("data: spill of %d × %d: %d values from row %d", s.Rows, s.Cols, len(v), first)
	}
	return s.write(v, first)
}

func (s *Spill[T]) write(v []T, row int) error {
	if _, err := s.f.WriteAt(asBytes(v), int64(row)*int64(s.Cols)*s.size()); err != nil {
		return fmt.Errorf("data: writing the spill file in %s: %w", s.Dir, err)
	}
	return nil
}

// Full reports whether every row was appended.
func (s *Spill[T]) Full() bool { return s.filled == s.Rows }

// read fills dst from entry off on. A failed read of a file this process
// wrote and holds open is a fault of the machine (disk, file system
// full): it panics with the cause rather than return numbers that are not
// the run's.
func (s *Spill[T]) read(dst []T, off int64) {
	if _, err := s.f.ReadAt(asBytes(dst), s.size()*off); err != nil {
		panic(fmt.Sprintf("data: reading the spill file in %s: %v", s.Dir, err))
	}
}

// Row reads row i into dst[:Cols] and returns it.
func (s *Spill[T]) Row(i int, dst []T) []T {
	dst = dst[:s.Cols]
	s.read(dst, int64(i)*int64(s.Cols))
	return dst
}

// Block reads rows [lo, hi) into dst[:(hi-lo)·Cols] and returns it.
func (s *Spill[T]) Block(lo, hi int, dst []T) []T {
	dst = dst[:(hi-lo)*s.Cols]
	s.read(dst, int64(lo)*int64(s.Cols))
	return dst
}

// Span reads entries [lo, hi) of row i into dst[:hi-lo] and returns it.
func (s *Spill[T]) Span(i, lo, hi int, dst []T) []T {
	dst = dst[:hi-lo]
	s.read(dst, int64(i)*int64(s.Cols)+int64(lo))
	return dst
}

// At reads entry (i, j).
func (s *Spill[T]) At(i, j int) T {
	var v [1]T
	s.read(v[:], int64(i)*int64(s.Cols)+int64(j))
	return v[0]
}

// Close releases the file (its blocks go with it).
func (s *Spill[T]) Close() error { return s.f.Close() }
