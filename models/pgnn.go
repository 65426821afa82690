package models

import (
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

func init() {
	for _, v := range []struct {
		name, desc string
		hops       int
	}{
		{"pgnn-f", "position-aware GNN, 2 layers, anchor distances truncated at 2 hops", 2},
		{"pgnn-e", "position-aware GNN, 2 layers, exact anchor distances", 0},
	} {
		Register(Entry{
			Name: v.name, Description: v.desc, NeedsHops: true, MaxHops: v.hops,
			Layers:     2,
			LambdaMSE:  1,
			New:        func(c Config) Model { return &pgnn{name: v.name, cfg: c, cutoff: v.hops} },
			Options:    pgnnOptions,
			Cost:       10, // measured per epoch on Communities
			Memory:     pgnnMemory,
			WholeGraph: "its anchor sets are drawn over each whole graph, and a node's message reads its closest anchor wherever it is",
		})
	}
}

// pgnnOptions are P-GNN's settings. The defaults stay implicit in Config
// (""), so the configurations of runs that keep them are unchanged.
var pgnnOptions = []Option{
	{Flag: "pgnn-anchor-copies", Default: 0.0, Usage: "P-GNN anchor sets: max(1, ⌊c·m⌋) random sets of each size n/2, n/4, … (m = ⌊log₂ n⌋ sizes; the reference's c). 0 = 1: m² sets, the paper's; c < 1 shrinks the N × sets × hidden messages for large graphs",
		Range: &Range{Min: 0, Max: 64},
		Set:   func(c *Config, v any) error { c.AnchorCopies = v.(float64); return nil }},
	{Flag: "pgnn-anchor-index", Default: AnchorFixed, Usage: "P-GNN closest-anchor semantics: fixed (the reference code since its fix 9c1553d) or original (before it: the anchor's position in its set read as a node id, as the paper's runs probably had)",
		Choices: []string{AnchorFixed, AnchorOriginal},
		Set:     implicit(AnchorFixed, func(c *Config, s string) { c.AnchorIndex = s })},
	{Flag: "pgnn-anchors", Default: AnchorEveryStep, Usage: "P-GNN anchor sets in training: step (redrawn every step, the reference) or once (one draw for the whole run)",
		Choices: []string{AnchorEveryStep, AnchorOnce},
		Set:     implicit(AnchorEveryStep, func(c *Config, s string) { c.AnchorDraw = s })},
	{Flag: "pgnn-eval-anchors", Default: AnchorLast, Usage: "P-GNN anchor sets at evaluation: last (the last training draw, the reference) or fresh (a new draw each evaluation)",
		Choices: []string{AnchorLast, AnchorFresh},
		Set:     implicit(AnchorLast, func(c *Config, s string) { c.AnchorEval = s })},
}

// implicit is an Option.Set for a string setting whose default is stored
// as "" (Option.Choices names the others).
func implicit(def string, set func(*Config, string)) func(*Config, any) error {
	return func(c *Config, v any) error {
		s := v.(string)
		if s == def {
			s = ""
		}
		set(c, s)
		return nil
	}
}

// pgnnPerSlot is P-GNN's memory per (node, anchor set, hidden) entry,
// forward and backward; calibrated against peak RSS with the rest of the
// memory plan.
const pgnnPerSlot = 12

// pgnnMemory: the anchor messages, N × anchor sets × hidden.
func pgnnMemory(s MemoryShape) MemoryTerms {
	var slots int64
	for _, n := range s.GraphNodes {
		slots += int64(n) * int64(AnchorSets(n, s.Config.AnchorCopies))
	}
	return MemoryTerms{After: []MemTerm{{"P-GNN anchor messages (N × anchor sets × hidden)",
		slots * int64(s.Config.Hidden) * s.BytesPerValue * pgnnPerSlot, "--pgnn-anchor-copies or --hidden"}}}
}

// NewPGNN returns P-GNN (You et al. 2019) registered under name (pgnn-f or
// pgnn-e; the entry's MaxHops sets the hop truncation), as its reference code behaves
// (shared/reference/pgnn-semantics.md §5):
//
//   - per graph of n nodes, K = ⌊log₂ n⌋² anchor sets: ⌊log₂ n⌋ copies of
//     each size ⌊n/2^(i+1)⌋ (at least 1), drawn uniformly without
//     replacement, redrawn before every training step and shared by all
//     layers; evaluation reuses the last training draw (Config.AnchorDraw
//     once keeps one draw for the run, Config.AnchorEval fresh evaluates
//     on a new draw each time: experiments, not the reference);
//   - s(v,u) = 1/(d(v,u)+1) on the message-passing graph, 0 when
//     unreachable or, for pgnn-f, beyond 2 hops; for node v and set S the
//     closest anchor a = argmax_{u∈S} s(v,u) (first on ties) and
//     ŝ = max_{u∈S} s(v,u);
//   - layer: msg_{v,S} = h_a·f(ŝ) with f = Linear(1→out)·ReLU·Linear(out→1);
//     m_{v,S} = ReLU(W·[msg_{v,S} ‖ h_v] + b) (written as two products, no
//     Concat); position output p_{v,S} = w·m_{v,S} + c; structure output
//     mean_S m_{v,S};
//   - model: linear pre-layer (always, whatever Config.Pre says), layer 1 (structure output), dropout, layer 2,
//     embedding = L2-normalised position output of the last layer.
//
// The embedding width is K, which depends on n. For many graphs in one run
// ignn pads every graph's position vector with zeros up to the largest K
// (zeros change no inner product, so cosines and losses are those of the
// unpadded vectors). Xavier-uniform init with gain √2, zero biases.
//
// Hop distances come from the blocks' all-pairs tables (Block.Hops) when
// they carry one; otherwise from a multi-source BFS per anchor set on the
// input adjacency at every draw (O(K·(n+E)) per draw, no n×n table), which
// gives the same closest anchors, ties included (tested).
//
// Contract: the engine.GraphInput carries one block per graph; the
// embedding width is the largest K, not c.Out.
func NewPGNN(name string, c Config) Model { return &pgnn{name: name, cfg: c} }

type pgnn struct {
	name   string
	cfg    Config
	cutoff int // anchor distances beyond it count as unreachable (0: none); used when blocks carry no hop table
	// anchors of the last training draw, shared with evaluation graphs.
	arg   []int
	dist  []int
	drawn bool
}

func (m *pgnn) Forward(b *engine.Builder, gi *engine.GraphInput) *G.Node {
	l := layout(gi, m.cutoff, m.cfg.AnchorCopies)
	l.original = m.cfg.AnchorIndex == AnchorOriginal
	if m.arg == nil || len(m.arg) != l.slots {
		m.arg, m.dist = make([]int, l.slots), make([]int, l.slots)
		m.drawn = false
	}
	argN := b.IntInput(m.name+".anchor.arg", l.slots)
	distN := b.IntInput(m.name+".anchor.sim", l.slots)
	selfN := b.IntInput(m.name+".anchor.self", l.slots)
	G.Must(selfN, engine.LetInts(selfN, l.self))
	table := l.simTable()
	tableN := b.Constant(m.name+".anchor.simtable", table, len(table), 1)
	train := b.Train
	once, fresh := m.cfg.AnchorDraw == AnchorOnce, m.cfg.AnchorEval == AnchorFresh
	var evArg, evDist []int
	b.AddFeed(engine.Feed{Node: argN, Fill: func(rng *rand.Rand) error {
		if !train && fresh { // a new draw for this evaluation; training's stays
			if evArg == nil {
				evArg, evDist = make([]int, l.slots), make([]int, l.slots)
			}
			l.draw(rng, evArg, evDist)
			if err := engine.LetInts(distN, evDist); err != nil {
				return err
			}
			return engine.LetInts(argN, evArg)
		}
		if (train && !once) || !m.drawn {
			l.draw(rng, m.arg, m.dist)
			m.drawn = true
		}
		if err := engine.LetInts(distN, m.dist); err != nil {
			return err
		}
		return engine.LetInts(argN, m.arg)
	}})
	h := b.InputLinear(m.name+".pre", gi.X, m.cfg.Hidden, true)
	in := m.cfg.Hidden
	var pos *G.Node
	for k := 0; k < m.cfg.Layers; k++ {
		name := fmt.Sprintf("%s.%d", m.name, k)
		out := m.cfg.Hidden
		if k == m.cfg.Layers-1 {
			out = m.cfg.Out
		}
		var st *G.Node
		st, pos = m.layer(b, name, h, argN, distN, tableN, selfN, l, in, out, k == m.cfg.Layers-1)
		engine.AssertShape(name, st, gi.Adj.N, out)
		if k < m.cfg.Layers-1 {
			h = b.Dropout(name+".dropout", st, m.cfg.Dropout)
		}
		in = out
	}
	z := G.Must(G.Reshape(engine.SpMM(l.place, pos), []int{gi.Adj.N, l.kmax}))
	return engine.RowNormalize(z)
}

func (m *pgnn) layer(b *engine.Builder, name string, h, argN, distN, tableN, selfN *G.Node, l *pgnnLayout, in, out int, last bool) (structure, position *G.Node) {
	gain := engine.Glorot(1.4142135623730951)
	// f(ŝ): 1 → out → 1, on the similarity table, then gathered per slot.
	f1 := b.Param(name+".dist.0.W", gain, 1, out)
	f := engine.MatMul(tableN, f1)
	f = engine.ReLU(b.AddBias(name+".dist.0.b", f, engine.Zeros))
	f = engine.MatMul(f, b.Param(name+".dist.1.W", gain, out, 1))
	f = b.AddBias(name+".dist.1.b", f, engine.Zeros)
	f = engine.Gather(f, distN)
	// ReLU(W_msg·(h_a·f(ŝ)) + W_self·h_v + b) = ReLU(f(ŝ)·(h·W_msg)_a +
	// (h·W_self)_v + b): products on N rows, one fused S×out op.
	wm := b.Param(name+".hidden.Wmsg", gain, in, out)
	ws := b.Param(name+".hidden.Wself", gain, in, out)
	bias := b.Param(name+".hidden.b", engine.Zeros, 1, out)
	hid := engine.AnchorMessage(engine.MatMul(h, wm), engine.MatMul(h, ws), f, bias, argN, selfN)
	if last { // earlier position outputs are unused (and would have no gradient)
		position = engine.MatMul(hid, b.Param(name+".pos.W", gain, out, 1))
		position = b.AddBias(name+".pos.b", position, engine.Zeros)
	}
	structure = engine.SpMM(l.pool, hid)
	return structure, position
}
