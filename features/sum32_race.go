//go:build race

package features

import "github.com/spaolacci/murmur3"

// sum32 is murmur3.Sum32(p) through murmur3's streaming digest, for the
// race detector's builds: Sum32 turns a uintptr variable back into a
// pointer, which the detector's pointer checks (checkptr) reject whatever
// memory p is in, so `go test -race` died in it. The digest reads p's
// 4-byte blocks through plain pointers, which pass when they are aligned:
// p is copied into an allocation of at least 16 bytes (a size class, not
// the tiny allocator's byte packing). In a normal build the digest made
// BenchmarkHashVectors 2.2× slower (4.9 → 10.9 ms), hence only here;
// TestHashGolden and TestMurmur3Vectors pin both builds to the same values.
func sum32(p []byte) uint32 {
	buf := make([]byte, len(p), len(p)+16)
	copy(buf, p)
	d := murmur3.New32()
	d.Write(buf)
	return d.Sum32()
}
