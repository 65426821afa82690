// Package objective builds the IGNN loss λ_BCE·BCE + λ_MSE·D as a symbolic
// gorgonia expression over pair index inputs, so gorgonia differentiates it.
// The distance term D is the paper's MSE, or a logistic ranking loss on
// node triples (DistanceRank). Beside the terms it owns their supervision,
// drawn from a data.Hops (pairsampler.go: MSE pairs, all bound once or
// resampled per epoch, uniform or stratified by distance; triplesampler.go:
// ranking triples), and their forward-only values on fixed embeddings
// (forward.go), which the validation objective reads.
package objective
