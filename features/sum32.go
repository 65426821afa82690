//go:build !race

package features

import "github.com/spaolacci/murmur3"

// sum32 is MurmurHash3_x86_32 of p, seed 0 (murmur3.Sum32). Under the race
// detector it takes the streaming digest instead (sum32_race.go).
func sum32(p []byte) uint32 { return murmur3.Sum32(p) }
