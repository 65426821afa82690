//go:build !amd64 || noasm

package data

// prefetch2 is a no-op here (another architecture, or -tags noasm): the
// BFS reads the same values, only without asking for them ahead.
func prefetch2(p, q *int32) {}
