//go:build !linux

package data

// WillNeed asks nothing here (no posix_fadvise outside Linux): the spill
// is read as it is.
func (s *Spill[T]) WillNeed() bool { return false }

// memAvailable is the kernel's MemAvailable (unused here; the test sets it).
var memAvailable = func() int64 { return MemInfo("MemAvailable") }
