//go:build !noasm

package data

// prefetch2 asks for the cache lines of p and q (nil: none) ahead of
// their reads (PREFETCHT0; prefetch_amd64.s).
//
//go:noescape
func prefetch2(p, q *int32)
