package objective

import (
	"fmt"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// Pairs is a list of node pairs (global rows of the union) with one value
// each: the label y ∈ {0, 1} for the BCE, the target t = 1 − 1/d^α for the
// MSE (see Target).
type Pairs struct {
	I, J []int
	V    []float64
}

// Add appends the pair (i, j) with value v.
func (p *Pairs) Add(i, j int, v float64) {
	p.I, p.J, p.V = append(p.I, i), append(p.J, j), append(p.V, v)
}

// Reset empties p, keeping its storage.
func (p *Pairs) Reset() { p.I, p.J, p.V = p.I[:0], p.J[:0], p.V[:0] }

// Len is the number of pairs.
func (p *Pairs) Len() int { return len(p.I) }

// Term is one loss term's pair inputs in the static graph: Slots pair slots
// (i, j), a value per slot and a weight per slot (1/P for the P used slots,
// 0 for padding), so pair sets of any size up to Slots fit the graph. It
// owns the buffers its inputs are bound from.
type Term struct {
	i, j, value, weight *G.Node
	Slots               int
	mse                 bool
	ib, jb              []int
	vb, wb              []float64
}

func newTerm(b *engine.Builder, name string, slots int, mse bool) *Term {
	return &Term{
		i:      b.IntInput(name+".i", slots),
		j:      b.IntInput(name+".j", slots),
		value:  b.Input(name+".value", slots),
		weight: b.Input(name+".weight", slots),
		Slots:  slots, mse: mse,
		ib: make([]int, slots), jb: make([]int, slots),
		vb: make([]float64, slots), wb: make([]float64, slots),
	}
}

// Bind sets the term's inputs for the next run to the pairs p. Used slots
// weigh 1/P (1/(4P) for the MSE, whose graph computes ((1−2t) − s)²/4 =
// ((1 − s)/2 − t)²); unused slots hold pair (0, 0) with weight 0. It errors
// when p is empty or has more pairs than slots.
func (t *Term) Bind(p *Pairs) error {
	n := p.Len()
	if n > t.Slots {
		return fmt.Errorf("objective: %d pairs for %d slots", n, t.Slots)
	}
	if n == 0 {
		return fmt.Errorf("objective: empty pair set")
	}
	w := 1 / float64(n)
	if t.mse {
		w /= 4
	}
	for s := 0; s < t.Slots; s++ {
		if s >= n {
			t.ib[s], t.jb[s], t.vb[s], t.wb[s] = 0, 0, 0, 0
			continue
		}
		t.ib[s], t.jb[s], t.wb[s] = p.I[s], p.J[s], w
		if t.mse {
			t.vb[s] = 1 - 2*p.V[s]
		} else {
			t.vb[s] = p.V[s]
		}
	}
	if err := engine.LetInts(t.i, t.ib); err != nil {
		return err
	}
	if err := engine.LetInts(t.j, t.jb); err != nil {
		return err
	}
	if err := engine.LetFloats(t.value, t.vb); err != nil {
		return err
	}
	return engine.LetFloats(t.weight, t.wb)
}
