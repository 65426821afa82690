package eval_test

import (
	"fmt"

	"github.com/ignn/ignn/eval"
)

// Kendall's τ-b with ties, scipy's documented example.
func ExampleKendallTauB() {
	fmt.Printf("%.6f\n", eval.KendallTauB([]float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}))
	// Output: -0.471405
}

// AUC with a tie: the tied positive/negative pair counts one half.
func ExampleAUC() {
	fmt.Println(eval.AUC([]float64{0.9, 0.5, 0.5, 0.1}, []bool{true, true, false, false}))
	// Output: 0.875
}
