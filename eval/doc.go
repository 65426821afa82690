// Package eval measures embeddings: AUC-ROC, AP and Hits@K, Kendall's τ-b
// between graph distance and cosine similarity, per-graph scoring of a split
// (GraphMetrics) or of a fixed pair sample (SampledMetrics, with a
// batch-means interval), faithfulness around query nodes (precision@k,
// distortion, per-distance buckets), nearest neighbours, and mean ± std
// summaries, intervals and paired tests over seeds. An evaluation's many
// row products come in bulk: embeddings held in memory through a PairTape
// (the pairs recorded once, computed ahead on every core at the next
// evaluations; pairtape.go), spilled ones a block of rows at a time as the
// file streams past (BlockScores, SpilledScores; pairdots.go). It owns the samples
// those metrics read, so that one place keeps them disjoint: the sampled
// path's fixed τ pairs (tausample.go) and the validation pairs model
// selection may look at (valsample.go), both drawn from a data.Hops, and
// chooses the share of an embedding's appended block on the latter
// (mix.go: Mixed, ChooseMix). It computes numbers only; tables, plots and exports live in
// cmd/internal/report.
package eval
