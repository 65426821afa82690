// Package objective builds the IGNN loss λ_BCE·BCE + λ_MSE·D as a symbolic
// gorgonia expression over pair index inputs, so gorgonia differentiates it.
// The distance term D is the paper's MSE, or a logistic ranking loss on
// node triples (DistanceRank).
package objective
