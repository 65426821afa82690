package objective

import (
	"fmt"

	"github.com/ignn/ignn/engine"
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

// Term is one loss term's pairs: up to Slots of them, bound before every
// run into the pair set its engine.PairLoss op reads.
type Term struct {
	Slots int
	mse   bool
	set   engine.PairSet
}

func newTerm(slots int, mse bool) *Term {
	return &Term{Slots: slots, mse: mse}
}

// Bind sets the term's pairs for the next run to p. Each pair weighs 1/P
// (1/(4P) for the MSE, computed as ((1−2t) − s)²/4 = ((1 − s)/2 − t)²). It
// errors when p is empty or has more pairs than slots.
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
	s := &t.set
	s.I, s.J = append(s.I[:0], p.I...), append(s.J[:0], p.J...)
	s.V, s.W = s.V[:0], s.W[:0]
	for k := 0; k < n; k++ {
		v := p.V[k]
		if t.mse {
			v = 1 - 2*v
		}
		s.V, s.W = append(s.V, v), append(s.W, w)
	}
	return nil
}

// Triples is a list of node triples (global rows of the union): J is nearer
// I than K is, by hop distance.
//
// Pair triples (AddPairs) compare two pairs: d(I, J) < d(A, K); A is nil
// until the first of them, and then as long as I.
type Triples struct {
	I, J, K []int
	A       []int
}

// Add appends the triple (i, j, k): d(i, j) < d(i, k).
func (t *Triples) Add(i, j, k int) {
	t.I, t.J, t.K = append(t.I, i), append(t.J, j), append(t.K, k)
	if t.A != nil {
		t.A = append(t.A, i)
	}
}

// AddPairs appends the pair triple ((i, j), (a, k)): d(i, j) < d(a, k).
func (t *Triples) AddPairs(i, j, a, k int) {
	if t.A == nil {
		t.A = append(make([]int, 0, cap(t.I)), t.I...)
	}
	t.I, t.J, t.K, t.A = append(t.I, i), append(t.J, j), append(t.K, k), append(t.A, a)
}

// Reset empties t, keeping its storage.
func (t *Triples) Reset() {
	t.I, t.J, t.K = t.I[:0], t.J[:0], t.K[:0]
	if t.A != nil {
		t.A = t.A[:0]
	}
}

// Len is the number of triples.
func (t *Triples) Len() int { return len(t.I) }

// TripleTerm is the ranking term's triples: up to Slots of them, bound
// before every run into the set its engine.RankLoss op reads.
type TripleTerm struct {
	Slots int
	set   engine.TripleSet
	a     []int // the set's A when the triples are pair triples
}

// Bind sets the term's triples for the next run to t, each weighing 1/P
// (the term is their mean). It errors when t is empty or has more triples
// than slots.
func (tt *TripleTerm) Bind(t *Triples) error {
	n := t.Len()
	if n > tt.Slots {
		return fmt.Errorf("objective: %d triples for %d slots", n, tt.Slots)
	}
	if n == 0 {
		return fmt.Errorf("objective: empty triple set")
	}
	s := &tt.set
	s.I, s.J, s.K = append(s.I[:0], t.I...), append(s.J[:0], t.J...), append(s.K[:0], t.K...)
	s.A = nil
	if t.A != nil {
		tt.a = append(tt.a[:0], t.A...)
		s.A = tt.a
	}
	s.W = s.W[:0]
	for k := 0; k < n; k++ {
		s.W = append(s.W, 1/float64(n))
	}
	return nil
}
