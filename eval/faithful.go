package eval

import (
	"sort"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
)

// Bucket summarises the pairs at one hop distance D (D = 0 collects the
// unreachable ones): how many, their mean cosine, and τ-b between distance
// and cosine over the pairs at D and D+1 — how well the embedding tells
// distance D from the next (NaN for the last bucket).
type Bucket struct {
	D       int     `json:"d"`
	Pairs   int     `json:"pairs"`
	MeanCos float64 `json:"mean_cos"`
	TauNext float64 `json:"tau_next"`
	// Quantiles of the cosine: 5%, 25%, 50%, 75%, 95% (nearest rank).
	Quantiles [5]float64 `json:"quantiles"`
}

// Faithfulness measures how well embeddings keep graph distance around a
// set of query nodes (every pair (query, other node of its graph)):
//
//   - PrecisionAtK: the share of each query's K nearest nodes by cosine that
//     lie in its BFS ball of the K nodes closest by hop distance, with ties
//     counted fairly: when the ball's outer distance d_K is shared by t
//     nodes of which only K − a fit (a nodes are strictly closer), each
//     embedding neighbour at d_K earns (K − a)/t (the expected credit under
//     random tie-breaking), closer ones earn 1; averaged over queries;
//   - DistortionMean and DistortionMax: with the learned distance
//     δ = max(arccos(cos)/π, 10⁻³) (10⁻³: about the angular resolution of
//     float32 embeddings, so coinciding rows do not read as infinite) and
//     ratios r = δ/d over reachable pairs, scaled by their median c, each
//     pair's distortion is v = max(r/c, c/r) ≥ 1; the mean is geometric
//     (exp of the mean log v, robust to a few extreme pairs), the worst is
//     the largest v;
//   - Buckets: per hop distance, see Bucket.
type Faithfulness struct {
	K              int      `json:"k"`
	Queries        int      `json:"queries"`
	PrecisionAtK   float64  `json:"precision_at_k"`
	DistortionMean float64  `json:"distortion_mean"`
	DistortionMax  float64  `json:"distortion_max"`
	Buckets        []Bucket `json:"by_distance"`
}

// minAngle floors the learned distance in the distortion.
const minAngle = 1e-3

// maxPairsPerQuery bounds the pairs per query that enter the distortion and
// the per-distance buckets (evenly spaced nodes), so 10⁶-node graphs stay
// cheap; precision@k always looks at every node.
const maxPairsPerQuery = 20000

// topK keeps the k highest cosines (ties: the lower node first).
type topK []struct {
	c float64
	j int
}

func (t *topK) offer(c float64, j, k int) {
	if len(*t) == k {
		last := (*t)[k-1]
		if c < last.c || (c == last.c && j > last.j) {
			return
		}
		*t = (*t)[:k-1]
	}
	i := sort.Search(len(*t), func(i int) bool {
		x := (*t)[i]
		return x.c < c || (x.c == c && x.j > j)
	})
	*t = append(*t, struct {
		c float64
		j int
	}{})
	copy((*t)[i+1:], (*t)[i:])
	(*t)[i] = struct {
		c float64
		j int
	}{c, j}
}

// FaithfulnessOf computes Faithfulness for embeddings z (width d, rows in
// u's order) around queries. O(Q·n·(d + log k)) for Q queries in graphs of
// n nodes; distortion and buckets use at most 20,000 evenly spaced nodes per
// query.
func FaithfulnessOf[T engine.Float](z []T, d int, u *data.Union, queries []Query, k int) Faithfulness {
	return FaithfulnessRows(func(lo, hi int, _ []T) []T { return z[lo*d : hi*d] }, d, u, queries, k)
}
