package eval

import (
	"slices"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Scoring spilled embeddings without scattered reads (issue 37). The
// evaluation asks for the products of ~8·10⁷ row pairs at 10⁸ nodes,
// most of them random (negatives, τ targets). Read two rows a pair from
// a spill file larger than the page cache, that is a disk seek each
// (≈ 80 µs here): about an hour an evaluation. Instead the scorers run
// twice: once recording the pairs they ask for, then — after every
// recorded product was computed a block of rows at a time, the file
// streaming past each block — again with the products in the order
// asked. The numbers are SpilledDot's, bit for bit.

// DotBlockBytes is how much of the embeddings blockDots holds at a time
// (the block the pairs' lower rows fall in); the file is read about
// N/block times in all.
var DotBlockBytes = 512 << 20

// dotStream is how many rows blockDots reads at a time as the file
// streams past a block.
const dotStream = 4096

// pairRecording is the pairs a scorer asked for, in order, and once
// computed their products.
type pairRecording struct {
	i, j []int32
	dots []float64
}

// standIn is the product the recording pass answers: varied (a scorer
// that checks its scores' spread must not see them collapse), cheap,
// and never used for a number that is kept.
func standIn(i, j int) float64 {
	h := uint64(i)*0x9e3779b97f4a7c15 ^ uint64(j)*0xc2b2ae3d27d4eb4f
	return float64(h>>11)/float64(1<<53)*2 - 1
}

// SpilledScores runs score with the products of rows of the spilled
// embeddings s (width d) as SpilledDot gives them (BlockScores over the
// file's blocks).
func SpilledScores(s *data.Spill[float32], d int, score func(dot func(i, j int) float64)) (direct int) {
	return BlockScores(s.Block, s.Rows, d, SpilledDot(s, d), score, DotBlockBytes)
}

// SpilledDot is engine.RowDot of embeddings in a spill file: rows i and j
// read by pread (row i kept while consecutive calls share it, as the τ
// sample's pairs of one source do), the same products in the same order.
func SpilledDot(s *data.Spill[float32], d int) func(i, j int) float64 {
	a, b, last := make([]float32, d), make([]float32, d), -1
	return func(i, j int) float64 {
		if i != last {
			s.Row(i, a)
			last = i
		}
		return engine.Dot64(a, s.Row(j, b))
	}
}

// BlockScores runs score with the products engine.Dot64 of rows of an
// n × d matrix that rows(lo, hi, buf) reads a block at a time (into buf,
// or returned; blockBytes of rows held at a time): score runs twice, first recording the pairs it asks for
// (answered with stand-ins), then with their products, computed by
// blockDots in between. Should the second run ask for a pair off the
// recording (a scorer whose choice of pairs depended on the stand-ins),
// that pair's product is dot(i, j): slower, the same number. It returns
// how many pairs were computed so.
func BlockScores[T engine.Float](rows func(lo, hi int, buf []T) []T, n, d int, dot func(i, j int) float64, score func(dot func(i, j int) float64), blockBytes int) (direct int) {
	var rec pairRecording
	score(func(i, j int) float64 {
		rec.i, rec.j = append(rec.i, int32(i)), append(rec.j, int32(j))
		return standIn(i, j)
	})
	rec.dots = make([]float64, len(rec.i))
	width := 4
	if _, wide := any(T(0)).(float64); wide {
		width = 8
	}
	blockDots(rows, n, d, rec.i, rec.j, rec.dots, max(1, blockBytes/(width*max(1, d))))
	next := 0
	score(func(i, j int) float64 {
		if next < len(rec.i) && int(rec.i[next]) == i && int(rec.j[next]) == j {
			next++
			return rec.dots[next-1]
		}
		direct++
		return dot(i, j)
	})
	return direct
}

// blockDots sets out[k] to engine.Dot64 of rows I[k] and J[k] of the n
// rows rows reads (a product of two float64-widened rows summed in order,
// the same either way round). The pairs are taken by the block of block
// rows their lower row falls in: the block is read once and held while
// the rows from its start on stream past dotStream at a time, only the
// stretches holding some pair's higher row read. O(N²/block) rows read at
// most, in order, against two scattered reads a pair.
func blockDots[T engine.Float](rows func(lo, hi int, buf []T) []T, n, d int, I, J []int32, out []float64, block int) {
	if n == 0 || len(I) == 0 {
		return
	}
	nb := (n + block - 1) / block
	// Each block's pairs are found by a scan of all of them (nb scans of
	// the list, no order array: 4 B a pair fewer, 330 MB at 10⁸ nodes),
	// each taken as its higher row and index in one word, hi<<32 | k, so
	// that sorting them by higher row reads no pair list (a comparator
	// reading I and J at random cost ≈ 4 s a block at 4·10⁷ nodes).
	var ks []uint64
	held := make([]T, min(block, n)*d)
	stream := make([]T, dotStream*d)
	for b := range nb {
		ks = ks[:0]
		for k := range I {
			if int(min(I[k], J[k]))/block == b {
				ks = append(ks, uint64(max(I[k], J[k]))<<32|uint64(k))
			}
		}
		if len(ks) == 0 {
			continue
		}
		lo, end := b*block, min(n, (b+1)*block)
		a := rows(lo, end, held)
		slices.Sort(ks)
		pair := func(p int) (k, l, h int) { // pair p's index, lower and higher row
			k = int(uint32(ks[p]))
			return k, int(min(I[k], J[k])), int(ks[p] >> 32)
		}
		for p := 0; p < len(ks); {
			// The stretch of rows holding the next pair's higher row.
			k, l, from := pair(p)
			if from < end { // inside the held block
				out[k] = engine.Dot64(a[(l-lo)*d:(l-lo+1)*d], a[(from-lo)*d:(from-lo+1)*d])
				p++
				continue
			}
			to := min(n, from+dotStream)
			z := rows(from, to, stream)
			for ; p < len(ks); p++ {
				k, l, h := pair(p)
				if h >= to {
					break
				}
				out[k] = engine.Dot64(a[(l-lo)*d:(l-lo+1)*d], z[(h-from)*d:(h-from+1)*d])
			}
		}
	}
}

// PairDotsBytes is what SpilledScores holds beyond the scorers for p
// recorded pairs of embeddings of width d on n nodes: the pairs and their
// products, the held block and stream, and the sort keys of the block
// with the most pairs (8 B each): the lowest, which holds the lower row of
// 1 − (1 − 1/blocks)² of random pairs.
func PairDotsBytes(p, n int64, d int) int64 {
	block := int64(max(1, DotBlockBytes/(4*max(1, d))))
	nb := float64(max(1, (n+block-1)/block))
	share := 1 - (1-1/nb)*(1-1/nb)
	return p*(4+4+8) + int64(8*float64(p)*share) + 4*int64(d)*(min(n, block)+dotStream)
}
