package models

// What a model adds to a run's memory plan (Entry.Memory).

// MemoryShape is what a model's memory terms are computed from: the run's
// resolved model configuration and the data's sizes.
type MemoryShape struct {
	Config        Config
	Nodes, Edges  int64 // over every graph of the run; Edges as data.Dataset.NumEdges
	GraphNodes    []int // each graph's node count
	BytesPerValue int64 // 4 (float32) or 8 (float64)
}

// MemTerm is one line a model adds to a run's memory plan: what it holds,
// its estimated bytes and the flag that shrinks it.
type MemTerm struct {
	What  string
	Bytes int64
	Flag  string
}

// MemoryTerms is a model's part of a run's memory plan, beyond the terms
// every model shares (parameters, N × hidden × layers activations, pairs).
type MemoryTerms struct {
	// ActivationScale multiplies the shared activation term (GAT: one per
	// head); 0 means 1.
	ActivationScale int64
	// ActivationFlags names the flags that shrink the activations ("" =
	// "--hidden or --layers").
	ActivationFlags string
	// Before are added before the activation term, After after it.
	Before, After []MemTerm
}
