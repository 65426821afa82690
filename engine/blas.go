package engine

import (
	"github.com/ignn/ignn/engine/internal/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gorgonia.org/tensor"
)

// The float32 Gemm of internal/blas, its parallel calls on the engine's
// workers, replaces gonum's for gorgonia and blas32 on CPUs with AVX2 and
// FMA; elsewhere everything stays gonum's.
func init() {
	if blas.Kernels() {
		impl := blas.Implementation{Parallel: sgemmRanges}
		tensor.Use(impl)
		blas32.Use(impl)
	}
}

// sgemmRanges runs a parallel Sgemm's ranges on the engine's workers (its
// fixed partition has as many ranges as the row ops').
func sgemmRanges(b [rowChunks + 1]int, r blas.Ranger) { runRangesOf(b, r) }
