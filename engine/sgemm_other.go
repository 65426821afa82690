//go:build !amd64

package engine

// haveKernels: no assembly kernels on this architecture; Sgemm stays gonum's.
const haveKernels = false

func kern32(t *float32, a *float32, astride int, b *float32, ldb int, k int) {
	panic("engine: kern32 without kernels")
}

func kern8(t *float32, a *float32, astride int, b *float32, ldb int, k int) {
	panic("engine: kern8 without kernels")
}
