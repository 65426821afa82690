package blas

// The kernels in Go, the assembly's operations in its order. Each product
// is rounded to float32 before it is added (the conversions forbid the
// compiler to fuse them), so the kernels without FMA (reluMask32,
// anchorFwd32, colSum16, colAxpy32, scatterAxpy32) are bit-identical to
// their Go versions, and the FMA ones (kern32rows, kern8, spRow32, spRow8)
// differ from theirs in the last bits wherever a product is inexact.

// kern32Go is kern32: t[0:32] = Σ_{l<k} a[l·as]·b[l·ldb : l·ldb+32], even
// l in one sum and odd l in another, added at the end.
func kern32Go(t, a []float32, as int, b []float32, ldb, k int) {
	for j := range t[:32] {
		var s0, s1 float32
		l := 0
		for ; l+2 <= k; l += 2 {
			s0 += float32(a[l*as] * b[l*ldb+j])
			s1 += float32(a[(l+1)*as] * b[(l+1)*ldb+j])
		}
		if l < k {
			s0 += float32(a[l*as] * b[l*ldb+j])
		}
		t[j] = s0 + s1
	}
}

// kern32rowsGo is kern32rows: for each row r < rows, t = kern32Go over
// a[r·arow:] and b, then c[r·ldc+j] = c[r·ldc+j] + α·t[j] (load), or
// 0 + α·t[j].
func kern32rowsGo(c []float32, ldc int, a []float32, arow, as int, b []float32, ldb, k, rows int, alpha float32, load bool) {
	kernRowsGo(32, c, ldc, a, arow, as, b, ldb, k, rows, alpha, load)
}

// kern16x3Go is kern16x3 over rows rows (a multiple of three): kern32rowsGo
// on 16 columns.
func kern16x3Go(c []float32, ldc int, a []float32, arow, as int, b []float32, ldb, k, rows int, alpha float32, load bool) {
	kernRowsGo(16, c, ldc, a, arow, as, b, ldb, k, rows, alpha, load)
}

// kernRowsGo is kern32rowsGo on w ≤ 32 columns.
func kernRowsGo(w int, c []float32, ldc int, a []float32, arow, as int, b []float32, ldb, k, rows int, alpha float32, load bool) {
	var t [32]float32
	bw := b // kern32Go reads 32 columns: b's w, padded
	if w < 32 && k > 0 {
		bw = make([]float32, (k-1)*ldb+32)
		for l := 0; l < k; l++ {
			copy(bw[l*ldb:l*ldb+w], b[l*ldb:])
		}
	}
	for r := 0; r < rows; r++ {
		kern32Go(t[:], a[r*arow:], as, bw, ldb, k)
		cr := c[r*ldc : r*ldc+w]
		for j, v := range t[:w] {
			p := float32(alpha * v)
			if load {
				cr[j] += p
			} else {
				cr[j] = 0 + p
			}
		}
	}
}

// kern8Go is kern8: t[0:8] = Σ_{l<k} a[l·as]·b[l·ldb : l·ldb+8], four sums
// (l mod 4) over the whole groups of four, the rest of l added to the
// first, then (s0 + s1) + (s2 + s3).
func kern8Go(t, a []float32, as int, b []float32, ldb, k int) {
	for j := range t[:8] {
		var s0, s1, s2, s3 float32
		l := 0
		for ; l+4 <= k; l += 4 {
			s0 += float32(a[l*as] * b[l*ldb+j])
			s1 += float32(a[(l+1)*as] * b[(l+1)*ldb+j])
			s2 += float32(a[(l+2)*as] * b[(l+2)*ldb+j])
			s3 += float32(a[(l+3)*as] * b[(l+3)*ldb+j])
		}
		for ; l < k; l++ {
			s0 += float32(a[l*as] * b[l*ldb+j])
		}
		t[j] = (s0 + s1) + (s2 + s3)
	}
}

// spRowGo is spRow32 and spRow8 for y's width: y[j] += Σ_k v[k]·x[cols[k]·ldx
// + j], y[j] and the even k in one sum, the odd k in another, added at the
// end.
func spRowGo(y, v []float32, cols []int, x []float32, ldx int) {
	for j := range y {
		s0, s1 := y[j], float32(0)
		k := 0
		for ; k+2 <= len(cols); k += 2 {
			s0 += float32(v[k] * x[cols[k]*ldx+j])
			s1 += float32(v[k+1] * x[cols[k+1]*ldx+j])
		}
		if k < len(cols) {
			s0 += float32(v[k] * x[cols[k]*ldx+j])
		}
		y[j] = s0 + s1
	}
}

// reluMaskGo is reluMask32: out[i] = g[i] if x[i] > 0, else 0 (NaN x → 0).
func reluMaskGo(out, x, g []float32) {
	for i, v := range x {
		if v > 0 {
			out[i] = g[i]
		} else {
			out[i] = 0
		}
	}
}

// anchorFwdGo is anchorFwd32: o[s·d+k] = max((f[s]·hm[arg[s]·d+k] +
// hs[self[s]·d+k]) + b[k], 0) for every slot s < len(arg) (NaN → 0,
// −0 → +0).
func anchorFwdGo(o, hm, hs, b, f []float32, arg, self []int, d int) {
	for s, a := range arg {
		ha, hv, os := hm[a*d:(a+1)*d], hs[self[s]*d:(self[s]+1)*d], o[s*d:(s+1)*d]
		for k := range os {
			if v := float32(f[s]*ha[k]) + hv[k] + b[k]; v > 0 {
				os[k] = v
			} else {
				os[k] = 0
			}
		}
	}
}

// colSumGo is colSum16 for acc's width: acc[j] += x[r·ldx + j] for
// r = 0…rows−1 in order.
func colSumGo(acc, x []float32, ldx, rows int) {
	for r := 0; r < rows; r++ {
		for j, v := range x[r*ldx : r*ldx+len(acc)] {
			acc[j] += v
		}
	}
}

// colAxpyGo is colAxpy32 for acc's width: acc[j] += x[r·ldx + j]·b[r·ldb]
// for r = 0…rows−1 in order.
func colAxpyGo(acc, x []float32, ldx int, b []float32, ldb, rows int) {
	for r := 0; r < rows; r++ {
		br := b[r*ldb]
		for j, v := range x[r*ldx : r*ldx+len(acc)] {
			acc[j] += float32(v * br)
		}
	}
}

// scatterAxpyGo is scatterAxpy32: o[idx[s]·d + k] += f[s]·g[s·d + k] for
// every slot s < len(idx) in order; f nil: += g.
func scatterAxpyGo(o, g, f []float32, idx []int, d int) {
	for s, i := range idx {
		gs, os := g[s*d:(s+1)*d], o[i*d:(i+1)*d]
		if f == nil {
			for k, v := range gs {
				os[k] += v
			}
			continue
		}
		for k, v := range gs {
			os[k] += float32(f[s] * v)
		}
	}
}
