package blas

// Kernels reports whether the AVX2+FMA assembly kernels run here. Where they
// do not, Implementation.Sgemm is gonum's and the functions below run their
// Go versions (generic.go).
func Kernels() bool { return haveKernels }

// SparseRow adds Σ_k v[k]·x[cols[k]·d : cols[k]·d+d] to y[0:d]: y[j] and
// the even k in one sum, the odd k in another, added at the end (spRow32,
// spRow8, with FMA where Kernels and d is a multiple of 8).
func SparseRow(y, v []float32, cols []int, x []float32, d int) {
	if len(cols) == 0 || d <= 0 {
		return
	}
	if len(y) < d || len(v) < len(cols) {
		panic(short)
	}
	for _, c := range cols {
		_ = x[c*d+d-1] // bounds: the kernels read x unchecked
	}
	if !haveKernels || d%8 != 0 {
		spRowGo(y[:d], v, cols, x, d)
		return
	}
	j := 0
	for ; j+32 <= d; j += 32 {
		spRow32(&y[j], &v[0], &cols[0], len(cols), &x[j], d)
	}
	for ; j < d; j += 8 {
		spRow8(&y[j], &v[0], &cols[0], len(cols), &x[j], d)
	}
}

// ReluMask sets out[i] = g[i] where x[i] > 0, else 0 (NaN x → 0), for
// i < len(x): g = x is ReLU, g a gradient its backward pass.
func ReluMask(out, x, g []float32) {
	if len(out) < len(x) || len(g) < len(x) {
		panic(short)
	}
	out, g = out[:len(x)], g[:len(x)]
	if n := len(x) &^ 7; haveKernels && n > 0 {
		// Branch-free AVX2 over the multiple-of-8 head, Go for the tail.
		reluMask32(&out[0], &x[0], &g[0], n)
		out, x, g = out[n:], x[n:], g[n:]
	}
	reluMaskGo(out, x, g)
}

// AnchorForward sets o[s·d+k] = max((f[s]·hm[arg[s]·d+k] + hs[self[s]·d+k])
// + b[k], 0) for every slot s < len(arg) and k < d (NaN → 0, −0 → +0):
// P-GNN's anchor messages, every element of o[:len(arg)·d] written.
func AnchorForward(o, hm, hs, b, f []float32, arg, self []int, d int) {
	slots := len(arg)
	if slots == 0 || d <= 0 {
		return
	}
	if len(o) < slots*d || len(f) < slots || len(self) < slots || len(b) < d {
		panic(short)
	}
	o, f, self, b = o[:slots*d], f[:slots], self[:slots], b[:d]
	checkRows(arg, len(hm), d)
	checkRows(self, len(hs), d)
	if !haveKernels || d%8 != 0 {
		anchorFwdGo(o, hm, hs, b, f, arg, self, d)
		return
	}
	anchorFwd32(&o[0], &hm[0], &hs[0], &b[0], &f[0], &arg[0], &self[0], slots, d)
}

// ColSum32 adds x[r·ldx : r·ldx+32] to acc[0:32] for r = 0…rows−1, in row
// order per column: ColSum16 on each half (a 128-byte row's two cache
// lines, one pass each).
func ColSum32(acc, x []float32, ldx, rows int) {
	if rows <= 0 {
		return
	}
	if ldx < 0 || len(acc) < 32 || len(x) < (rows-1)*ldx+32 {
		panic(short)
	}
	ColSum16(acc, x, ldx, rows)
	ColSum16(acc[16:], x[16:], ldx, rows)
}

// ColSum16 adds x[r·ldx : r·ldx+16] to acc[0:16] for r = 0…rows−1, in row
// order per column. The two halves of a 32-wide matrix can run at once and
// give ColSum32's sums bit for bit.
func ColSum16(acc, x []float32, ldx, rows int) {
	if rows <= 0 {
		return
	}
	if ldx < 0 || len(acc) < 16 || len(x) < (rows-1)*ldx+16 {
		panic(short)
	}
	if !haveKernels {
		colSumGo(acc[:16], x, ldx, rows)
		return
	}
	colSum16(&acc[0], &x[0], ldx, rows)
}

// ScatterAxpy adds f[s]·g[s·d : s·d+d] (a product, then a sum) to row
// idx[s] of o (d wide) for every slot s < len(idx), in slot order; f nil
// adds g.
func ScatterAxpy(o, g, f []float32, idx []int, d int) {
	slots := len(idx)
	if slots == 0 || d <= 0 {
		return
	}
	if len(g) < slots*d || f != nil && len(f) < slots {
		panic(short)
	}
	checkRows(idx, len(o), d)
	if !haveKernels || d%8 != 0 {
		scatterAxpyGo(o, g, f, idx, d)
		return
	}
	var fp *float32
	if f != nil {
		fp = &f[0]
	}
	scatterAxpy32(&o[0], &g[0], fp, &idx[0], slots, d)
}

const short = "blas: slice too short for the kernel's operands"

// checkRows panics unless every idx names a d-wide row within length n:
// the kernels read them unchecked.
func checkRows(idx []int, n, d int) {
	for _, i := range idx {
		if i < 0 || i*d+d > n {
			panic("blas: row index out of range")
		}
	}
}
