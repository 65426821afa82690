// Package data builds the graphs ignn trains on and the pair sets it trains
// and evaluates with: the Communities generator, the Email and PROTEINS
// loaders, users' own graphs (delimited edge lists with optional headers
// and chosen columns, Matrix Market files, gzip/bzip2/zstd by content,
// named or integer node ids), link and pair-classification splits with
// leak-free negatives, breadth-first hop distances, and Hops: the one
// hop-distance source every sampler reads (exact all-pairs tables, or BFS
// rows on demand for graphs whose tables would not fit). Files are written
// atomically (atomic.go) and JSON files read back with the reason a bad
// one is corrupt (ReadJSONFile, CorruptFileError: jsonfile.go).
package data
