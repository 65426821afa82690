//go:build !amd64 || noasm

package data

import "unsafe"

// PrefetchLines is a no-op here (another architecture, or -tags noasm):
// the loops that call it read the same values, only without asking for
// them ahead.
func PrefetchLines(p, q unsafe.Pointer) {}
