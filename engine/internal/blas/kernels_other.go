//go:build !amd64 || noasm

package blas

import "unsafe"

// haveKernels: no assembly kernels here (another architecture, or built
// with -tags noasm); Sgemm stays gonum's.
const haveKernels = false

// The kernels' names call their Go versions (generic.go) here: the code
// that calls them does so behind haveKernels, so only the tests reach them.

func kern32rows(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, rows int, alpha float32, load int) {
	kern32rowsGo(unsafe.Slice(c, span(rows, ldc, 32)), ldc, unsafe.Slice(a, span(rows, arow, 1)+span(k, astride, 1)-1), arow, astride,
		unsafe.Slice(b, span(k, ldb, 32)), ldb, k, rows, alpha, load != 0)
}

func kern16x3(c *float32, ldc int, a *float32, arow, astride int, b *float32, ldb, k, triples int, alpha float32, load int) {
	rows := 3 * triples
	kern16x3Go(unsafe.Slice(c, span(rows, ldc, 16)), ldc, unsafe.Slice(a, span(rows, arow, 1)+span(k, astride, 1)-1), arow, astride,
		unsafe.Slice(b, span(k, ldb, 16)), ldb, k, rows, alpha, load != 0)
}

func kern8(t *float32, a *float32, astride int, b *float32, ldb int, k int) {
	kern8Go(unsafe.Slice(t, 8), unsafe.Slice(a, span(k, astride, 1)), astride, unsafe.Slice(b, span(k, ldb, 8)), ldb, k)
}

func spRow32(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int) {
	spRowPtr(32, y, v, cols, nnz, x, ldx)
}

func spRow8(y *float32, v *float32, cols *int, nnz int, x *float32, ldx int) {
	spRowPtr(8, y, v, cols, nnz, x, ldx)
}

func spRowPtr(w int, y *float32, v *float32, cols *int, nnz int, x *float32, ldx int) {
	cs, n := unsafe.Slice(cols, nnz), 0
	for _, c := range cs {
		n = max(n, c*ldx+w)
	}
	spRowGo(unsafe.Slice(y, w), unsafe.Slice(v, nnz), cs, unsafe.Slice(x, n), ldx)
}

func reluMask32(out, x, gr *float32, n int) {
	reluMaskGo(unsafe.Slice(out, n), unsafe.Slice(x, n), unsafe.Slice(gr, n))
}

func anchorFwd32(o, hm, hs, b, f *float32, arg, self *int, slots, d int) {
	as, ss := unsafe.Slice(arg, slots), unsafe.Slice(self, slots)
	anchorFwdGo(unsafe.Slice(o, slots*d), unsafe.Slice(hm, rowsSpan(as, d)), unsafe.Slice(hs, rowsSpan(ss, d)),
		unsafe.Slice(b, d), unsafe.Slice(f, slots), as, ss, d)
}

func colSum16(acc, x *float32, ldx, rows int) {
	colSumGo(unsafe.Slice(acc, 16), unsafe.Slice(x, span(rows, ldx, 16)), ldx, rows)
}

func colAxpy32(acc, x *float32, ldx int, b *float32, ldb, rows int) {
	colAxpyGo(unsafe.Slice(acc, 32), unsafe.Slice(x, span(rows, ldx, 32)), ldx, unsafe.Slice(b, span(rows, ldb, 1)), ldb, rows)
}

func scatterAxpy32(o, gr, f *float32, idx *int, slots, d int) {
	is := unsafe.Slice(idx, slots)
	var fs []float32
	if f != nil {
		fs = unsafe.Slice(f, slots)
	}
	scatterAxpyGo(unsafe.Slice(o, rowsSpan(is, d)), unsafe.Slice(gr, slots*d), fs, is, d)
}

// span is the length n strided rows of width w cover: (n−1)·stride + w.
func span(n, stride, w int) int {
	if n == 0 {
		return 0
	}
	return (n-1)*stride + w
}

// rowsSpan is the length the d-wide rows idx of a matrix cover.
func rowsSpan(idx []int, d int) int {
	m := -1
	for _, i := range idx {
		m = max(m, i)
	}
	return (m + 1) * d
}
