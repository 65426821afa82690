// Package eval measures embeddings: AUC-ROC, Kendall's τ-b between graph
// distance and cosine similarity, aggregation over seeds, and the tables the
// CLI prints and writes.
package eval
