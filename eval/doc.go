// Package eval measures embeddings: AUC-ROC, Kendall's τ-b between graph
// distance and cosine similarity, per-graph scoring of a split
// (GraphMetrics), and mean ± std summaries over seeds. It computes numbers
// only; tables, plots and exports live in cmd/internal/report.
package eval
