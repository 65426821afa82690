//go:build !noasm

package data

import "unsafe"

// PrefetchLines asks for the cache lines holding p and q (nil: none) ahead
// of their reads (PREFETCHT0, prefetch_amd64.s): a hint that never faults
// and changes no value, only when the memory is waited for. For loops over
// scattered rows whose next addresses are known a few iterations ahead
// (the BFS queue, a batch's rows).
//
//go:noescape
func PrefetchLines(p, q unsafe.Pointer)
