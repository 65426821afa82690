package data

import "golang.org/x/sys/unix"

// WillNeed asks the kernel to read the spill's whole file into the page
// cache ahead of its reads (posix_fadvise WILLNEED: readahead in large
// sequential requests), when the file is at most half the memory the
// kernel reports available. Pages of a spill that the kernel dropped while
// the run wrote other files come back so in a few large reads instead of
// one 4 KB fault at a time at the moment a step or an evaluation needs
// them (issue 37: at 4·10⁷ nodes the training steps were found waiting on
// such faults of the landmark hop counts). A larger file is left alone:
// reading all of it would push out what the run reads more often. It
// reports whether it asked; what the spill's reads return is unchanged.
func (s *Spill[T]) WillNeed() bool {
	size := int64(s.Rows) * int64(s.Cols) * s.size()
	if avail := memAvailable(); size == 0 || avail < 0 || size > avail/2 {
		return false
	}
	return unix.Fadvise(int(s.f.Fd()), 0, size, unix.FADV_WILLNEED) == nil
}

// memAvailable is the kernel's MemAvailable in bytes (−1 when unknown);
// a variable for tests.
var memAvailable = func() int64 { return MemInfo("MemAvailable") }
