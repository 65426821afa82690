package engine

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns the random stream called name for a run seeded with seed.
// Streams are independent of each other and of the order they are created
// in, so adding a new consumer never shifts the numbers an existing one sees
// ("split", "negatives", "init", "dropout", "anchors", …).
func Stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}
