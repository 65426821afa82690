package engine

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns the random stream called name for a run seeded with seed.
// Streams are independent of each other and of the order they are created
// in, so adding a new consumer never shifts the numbers an existing one sees
// ("split", "negatives", "init", "dropout", "anchors", …).
func Stream(seed uint64, name string) *rand.Rand { return NewSeeded(seed, name).Rand }

// Seeded is a named stream whose state can be saved and restored
// (checkpoints resume every stream exactly where it stopped).
type Seeded struct {
	*rand.Rand
	src *rand.PCG
}

// NewSeeded returns the stream called name for seed, as Stream does.
func NewSeeded(seed uint64, name string) *Seeded {
	h := fnv.New64a()
	h.Write([]byte(name))
	src := rand.NewPCG(seed, h.Sum64())
	return &Seeded{Rand: rand.New(src), src: src}
}

// MarshalBinary returns the stream's state.
func (s *Seeded) MarshalBinary() ([]byte, error) { return s.src.MarshalBinary() }

// UnmarshalBinary restores a state from MarshalBinary.
func (s *Seeded) UnmarshalBinary(b []byte) error { return s.src.UnmarshalBinary(b) }

// OtherThan draws a node uniformly from the n nodes other than s (n ≥ 2):
// the one rule every sampler uses for "another node of the graph". It
// consumes one rng.IntN(n−1).
func OtherThan(rng *rand.Rand, n, s int) int {
	j := rng.IntN(n - 1)
	if j >= s {
		j++
	}
	return j
}
