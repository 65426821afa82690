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

func spRow32(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int) {
	panic("engine: spRow32 without kernels")
}

func spRow8(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int) {
	panic("engine: spRow8 without kernels")
}

func reluMask32(out, x, gr *float32, n int) { panic("engine: reluMask32 without kernels") }

func anchorFwd32(o, hm, hs, b, f *float32, arg, self *int, slots, d int) {
	panic("engine: anchorFwd32 without kernels")
}

func colSum32(acc, x *float32, ldx, rows int) { panic("engine: colSum32 without kernels") }

func colAxpy32(acc, x *float32, ldx int, b *float32, ldb, rows int) {
	panic("engine: colAxpy32 without kernels")
}

func scatterAxpy32(o, gr, f *float32, idx *int, slots, d int) {
	panic("engine: scatterAxpy32 without kernels")
}
