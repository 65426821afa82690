// Package blas holds ignn's float32 kernels: a BLAS whose Sgemm runs
// AVX2+FMA row kernels, and the AVX2 sparse-row and element kernels the
// engine's ops call.
//
// It owns Implementation (gonum's BLAS with that Sgemm: k-panels, the fixed
// row or k partition of a parallel call, the narrow matrix-vector and
// outer-product paths), the amd64 assembly (sgemm_amd64.s: kern32rows, kern8,
// spRow32, spRow8; elem_amd64.s: reluMask32, anchorFwd32, colSum16,
// colAxpy32, scatterAxpy32), the CPU check that enables it (Kernels: AVX2
// and FMA, golang.org/x/sys/cpu), and the exported functions over slices
// that check bounds and call the kernels: SparseRow, ReluMask,
// AnchorForward, ColSum32, ColSum16, ScatterAxpy. Every result is summed in an order
// fixed by the shapes alone, whatever GOMAXPROCS is.
//
// Beside the assembly, every kernel has a Go version doing its operations in
// its order (generic.go): the exported functions run it where Kernels
// reports false or a width is no multiple of 8, and on other architectures,
// or built with -tags noasm, the kernels' own names call it. The element
// kernels use no fused multiply-add, so their Go versions are bit-identical
// to them (tested, NaN payloads aside). kern32rows, kern8, spRow32 and spRow8
// use FMA (VFMADD231PS), which Go has no float32 form of (math.FMA is
// float64, and rounding its result to float32 rounds twice): their Go
// versions round each product before adding it, so they differ in the last
// bits where a product is inexact (tested within rounding, and bit for bit
// on inputs whose products are exact). The engine therefore calls this
// package's kernels only where Kernels reports true and keeps its own Go
// loops elsewhere, and Sgemm is gonum's there: results on machines without
// the kernels are what they were before the kernels moved here.
//
// The engine installs Implementation for gorgonia and blas32, Parallel
// running on its workers; Sgemm's results do not depend on Parallel.
//
// blas imports nothing of ours: only gonum, golang.org/x/sys/cpu and the
// standard library.
package blas
