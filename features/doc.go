// Package features builds node input features: permuted one-hot identities,
// given attributes, and the paper's murmur3 hash vectors, concatenated into
// the engine's input description.
package features
