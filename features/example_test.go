package features_test

import (
	"fmt"

	"github.com/ignn/ignn/features"
)

// The first two hash components of nodes 0 and 1 (deterministic, in [−1, 1];
// H(1 ⊕ 1) = −0.9072878 was checked with an independent Python MurmurHash3).
func ExampleHashVectors() {
	h := features.HashVectors([]uint64{0, 1}, 2)
	fmt.Printf("%.4f %.4f\n%.4f %.4f\n", h[0], h[1], h[2], h[3])
	// Output:
	// -0.3027 0.7479
	// -0.3407 -0.9073
}
