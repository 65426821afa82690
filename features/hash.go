package features

import "encoding/binary"

// HashKey is the byte string b ⊕ k hashed for component k of node b
// (Algorithm 1 of the paper): the node identifier as 8 little-endian bytes
// followed by k as 4 little-endian bytes. Fixed width makes the encoding
// unambiguous (decimal concatenation would collide: "1"+"11" = "11"+"1").
// This function is the single definition of the key; golden tests pin it.
func HashKey(node uint64, k uint32) [12]byte {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], node)
	binary.LittleEndian.PutUint32(b[8:], k)
	return b
}

// HashComponent is H(b ⊕ k) = int32(MurmurHash3_x86_32(key, seed 0)) /
// (2³¹ − 1), a value in [−1.0000000005, 1].
func HashComponent(node uint64, k uint32) float64 {
	key := HashKey(node, k)
	return float64(int32(sum32(key[:]))) / (1<<31 - 1)
}

// HashVectors returns the n-dimensional hash vector of every node, row-major
// len(ids)×n. O(len(ids)·n).
func HashVectors(ids []uint64, n int) []float64 {
	out := make([]float64, len(ids)*n)
	for i, id := range ids {
		for k := 0; k < n; k++ {
			out[i*n+k] = HashComponent(id, uint32(k))
		}
	}
	return out
}
