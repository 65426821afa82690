//go:build !linux

package data

// WillNeed asks nothing here (no posix_fadvise outside Linux): the spill
// is read as it is.
func (s *Spill[T]) WillNeed() bool { return false }

// memAvailable is unknown here.
var memAvailable = func() int64 { return -1 }
