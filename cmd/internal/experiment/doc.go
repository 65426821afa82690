// Package experiment wires one training run (a "cell"): dataset → split →
// distances → features → model → objective → trainer → metrics. The CLI's
// train, compare and sweep commands all go through Run.
package experiment
