package features

import (
	"sync"

	"gonum.org/v1/gonum/mat"
)

// PrincipalMap returns a k×out map (row-major) whose columns are the top
// out eigenvectors of the uncentred Gram matrix XᵀX of the n×k rows x, so
// that x·W keeps as much of the rows' inner products as out dimensions can
// (all of them when out ≥ k: then W = [I | 0]). Each eigenvector's sign is
// fixed (its largest-magnitude entry positive), so the map is a function of
// x alone. O(n·k² + k³).
func PrincipalMap[T float32 | float64](x []T, n, k, out int) []float64 {
	return PrincipalRows(func(r int, dst []float64) {
		for j, v := range x[r*k : (r+1)*k] {
			dst[j] = float64(v)
		}
	}, n, k, out)
}

// PrincipalRows is PrincipalMap of the n rows read (engine.Features.Rows
// reads a stored or viewed block), summed in the same order.
func PrincipalRows(read RowReader, n, k, out int) []float64 {
	w := make([]float64, k*out)
	if out >= k {
		for i := 0; i < k; i++ {
			w[i*out+i] = 1
		}
		return w
	}
	g := gramRows(read, n, k)
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(k, g), true) {
		for i := 0; i < out; i++ {
			w[i*out+i] = 1
		}
		return w
	}
	var v mat.Dense
	es.VectorsTo(&v)
	// Eigenvalues come in ascending order: the last out columns, largest first.
	for c := 0; c < out; c++ {
		src := k - 1 - c
		big, sign := 0.0, 1.0
		for a := 0; a < k; a++ {
			if e := v.At(a, src); e*e > big {
				big, sign = e*e, 1
				if e < 0 {
					sign = -1
				}
			}
		}
		for a := 0; a < k; a++ {
			w[a*out+c] = sign * v.At(a, src)
		}
	}
	return w
}

// gramRows is XᵀX of the n rows read (k values each), every entry summed
// over the rows in row order (rows whose entry a is 0 skipped for row a),
// the lower triangle mirrored from the upper.
func gramRows(read RowReader, n, k int) []float64 {
	g := make([]float64, k*k)
	// The triangle's rows a < split and a ≥ split hold about as many entries
	// each: two goroutines add a block's products to their own entries, each
	// entry still summed over the rows in row order.
	split := 0
	for tri := 0; split < k && 2*(tri+k-split) <= k*(k+1)/2; split++ {
		tri += k - split
	}
	gram := func(rows []float64) {
		var wg sync.WaitGroup
		if len(rows) >= 64*k && split > 0 && split < k {
			wg.Add(1)
			go func() { defer wg.Done(); gramTriangle(g, rows, k, split, k) }()
			gramTriangle(g, rows, k, 0, split)
		} else {
			gramTriangle(g, rows, k, 0, k)
		}
		wg.Wait()
	}
	readRows(read, n, k, gram)
	for a := 0; a < k; a++ {
		for b := 0; b < a; b++ {
			g[a*k+b] = g[b*k+a]
		}
	}
	return g
}

// gramTriangle adds the products of rows (k values each), row after row,
// to g's upper-triangle rows a ∈ [from, to): g[a][b] += x_a·x_b for b ≥ a,
// skipping the rows whose x_a is 0.
func gramTriangle(g, rows []float64, k, from, to int) {
	for lo := 0; lo < len(rows); lo += k {
		row := rows[lo : lo+k]
		for a := from; a < to; a++ {
			va := row[a]
			if va == 0 {
				continue
			}
			ga := g[a*k : (a+1)*k]
			for b := a; b < k; b++ {
				ga[b] += va * row[b]
			}
		}
	}
}

// principalBlock is how many rows readRows reads into one block.
const principalBlock = 1024

// readRows reads rows 0…n−1 (k values each) in blocks of principalBlock
// rows and hands each block to use, in row order. With more than two
// blocks, one goroutine reads the next block (a view computes its rows)
// while use takes the current one; read is only ever called from that one
// goroutine and use from the caller's, so read need not be safe for
// concurrent use, and use sees the same rows in the same order.
func readRows(read RowReader, n, k int, use func(rows []float64)) {
	fill := func(buf []float64, lo int) []float64 {
		hi := min(lo+principalBlock, n)
		for r := lo; r < hi; r++ {
			read(r, buf[(r-lo)*k:(r-lo+1)*k])
		}
		return buf[:(hi-lo)*k]
	}
	if n <= 2*principalBlock {
		buf := make([]float64, principalBlock*k)
		for lo := 0; lo < n; lo += principalBlock {
			use(fill(buf, lo))
		}
		return
	}
	full, free := make(chan []float64, 1), make(chan []float64, 2)
	free <- make([]float64, principalBlock*k)
	free <- make([]float64, principalBlock*k)
	go func() {
		for lo := 0; lo < n; lo += principalBlock {
			full <- fill(<-free, lo)
		}
		close(full)
	}()
	for rows := range full {
		use(rows)
		free <- rows[:cap(rows)]
	}
}
