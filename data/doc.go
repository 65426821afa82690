// Package data builds the graphs ignn trains on and the pair sets it trains
// and evaluates with: the Communities generator, the Email and PROTEINS
// loaders, users' own edge lists, link and pair-classification splits with
// leak-free negatives, and breadth-first hop distances.
package data
