// Package features builds node input features: permuted one-hot identities,
// given attributes, the paper's murmur3 hash vectors (hash.go), and the
// positional encodings (position.go: Position, Encode; Laplacian
// eigenvectors lappe.go with lanczos.go, random-walk returns rwpe.go, BFS
// landmark distances), concatenated into the engine's input description
// (build.go: Build, Standardise). It also makes the skip path's input
// (skip.go: SkipBlocks, the typed --skip-polar) from those columns, as they
// are, standardised, or as Polar's cone (polar.go), and the neighbourhood
// sketch some embeddings end with (sketch.go: NeighbourSketch, the sum of
// a node's neighbours' hash vectors) and the popularity column after it
// (popularity.go: Popularity, from the degrees).
package features
