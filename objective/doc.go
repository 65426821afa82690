// Package objective builds the IGNN loss λ_BCE·BCE + λ_MSE·MSE as a symbolic
// gorgonia expression over pair index inputs, so gorgonia differentiates it.
package objective
