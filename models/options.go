package models

import (
	"fmt"
	"sort"
)

// Option is a setting a model owns: the flag that sets it in train, compare
// and sweep, its default, and how a value enters Config. Models that share
// an option (P-GNN-F and P-GNN-E) register the same Option value; the CLI
// adds each flag once.
type Option struct {
	Flag  string // the CLI flag, without dashes ("heads")
	Usage string // the flag's help, naming the model it applies to
	// Default is the flag's default and fixes its type: string, int,
	// float64 or bool.
	Default any
	// Set validates v (of Default's type) and stores it in c; its error
	// names the accepted values. Setting Default leaves a Config as
	// DefaultConfig has it, so other models' configurations never change.
	Set func(c *Config, v any) error
}

// Options lists the options of every registered model, each flag once,
// sorted by flag. It panics if two options share a flag with different
// defaults (a registration error).
func Options() []Option {
	seen := map[string]Option{}
	for _, e := range registry {
		for _, o := range e.Options {
			if p, ok := seen[o.Flag]; ok && p.Default != o.Default {
				panic(fmt.Sprintf("models: option --%s registered with defaults %v and %v", o.Flag, p.Default, o.Default))
			}
			seen[o.Flag] = o
		}
	}
	out := make([]Option, 0, len(seen))
	for _, o := range seen {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Flag < out[j].Flag })
	return out
}

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

// SetOwn stores a model's own option (Config.Own) by flag: v, or nothing
// when v equals def (the option's default), so a configuration that keeps
// the defaults is DefaultConfig's.
func (c *Config) SetOwn(flag string, v, def any) {
	if v == def {
		delete(c.Own, flag)
		if len(c.Own) == 0 {
			c.Own = nil
		}
		return
	}
	if c.Own == nil {
		c.Own = map[string]any{}
	}
	c.Own[flag] = v
}

// OwnInt is the int option flag of c, def when unset (a stored
// configuration's JSON number is converted).
func (c Config) OwnInt(flag string, def int) int {
	switch v := c.Own[flag].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return def
}

// OwnFloat is the float64 option flag of c, def when unset.
func (c Config) OwnFloat(flag string, def float64) float64 {
	switch v := c.Own[flag].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return def
}

// OwnString is the string option flag of c, def when unset.
func (c Config) OwnString(flag, def string) string {
	if v, ok := c.Own[flag].(string); ok {
		return v
	}
	return def
}

// OwnBool is the bool option flag of c, def when unset.
func (c Config) OwnBool(flag string, def bool) bool {
	if v, ok := c.Own[flag].(bool); ok {
		return v
	}
	return def
}
