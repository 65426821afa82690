package objective

import (
	"fmt"
	"math"

	"github.com/ignn/ignn/engine"
	G "gorgonia.org/gorgonia"
)

// Config weights the two terms.
type Config struct {
	LambdaBCE float64 // weight of the task BCE
	LambdaMSE float64 // weight of the distance MSE
	Alpha     float64 // exponent of the distance transform 1 − 1/d^α
}

// Validate rejects a loss that trains nothing.
func (c Config) Validate() error {
	if c.LambdaBCE < 0 || c.LambdaMSE < 0 {
		return fmt.Errorf("objective: λ must be ≥ 0 (λ_BCE = %g, λ_MSE = %g)", c.LambdaBCE, c.LambdaMSE)
	}
	if c.LambdaBCE == 0 && c.LambdaMSE == 0 {
		return fmt.Errorf("objective: λ_BCE and λ_MSE are both 0: nothing to train")
	}
	if c.Alpha <= 0 || math.IsNaN(c.Alpha) {
		return fmt.Errorf("objective: α must be > 0, got %g", c.Alpha)
	}
	return nil
}

// PairInputs are the per-run inputs of one term: P pair slots (I, J), a
// per-slot value (label y for BCE, target t for MSE) and a per-slot weight w
// (1/P_used for used slots, 0 for padding), so variable pair counts fit the
// static graph.
type PairInputs struct {
	I, J   *G.Node
	Value  *G.Node
	Weight *G.Node
	Slots  int
}

func newPairInputs(b *engine.Builder, name string, slots int) PairInputs {
	return PairInputs{
		I:      b.IntInput(name+".i", slots),
		J:      b.IntInput(name+".j", slots),
		Value:  b.Input(name+".value", slots),
		Weight: b.Input(name+".weight", slots),
		Slots:  slots,
	}
}

// Loss is the built objective.
type Loss struct {
	Total    *G.Node
	Terms    map[string]*G.Node // "bce", "mse": unweighted means
	BCE, MSE *PairInputs        // nil when the term's λ is 0
}

// Build adds the loss over embeddings z (N×D, rows L2-normalised) to b's
// graph. The pair score is s = ⟨z_i, z_j⟩ (the cosine), used as the logit:
//
//	BCE = Σ_p w_p·(softplus(s_p) − y_p·s_p)           (stable on logits)
//	MSE = Σ_p w_p·((1 − s_p)/2 − t_p)²,  t = 1 − 1/d^α (unreachable: 1)
//
// written as Σ (w/4)·(c − s)² with the input c = 1 − 2t. Terms whose λ is 0
// are not built at all. bceSlots and mseSlots size the pair inputs.
func Build(b *engine.Builder, z *G.Node, cfg Config, bceSlots, mseSlots int) (*Loss, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l := &Loss{Terms: map[string]*G.Node{}}
	var total *G.Node
	add := func(name string, term *G.Node, lambda float64) {
		l.Terms[name] = term
		w := G.Must(G.Mul(term, b.Scalar("lambda."+name, lambda)))
		if total == nil {
			total = w
		} else {
			total = G.Must(G.Add(total, w))
		}
	}
	if cfg.LambdaBCE > 0 {
		if bceSlots < 1 {
			return nil, fmt.Errorf("objective: BCE needs at least one pair")
		}
		in := newPairInputs(b, "bce", bceSlots)
		s := engine.PairDot(z, in.I, in.J)
		per := G.Must(G.Sub(G.Must(G.Softplus(s)), G.Must(G.HadamardProd(in.Value, s))))
		add("bce", G.Must(G.Sum(G.Must(G.HadamardProd(in.Weight, per)))), cfg.LambdaBCE)
		l.BCE = &in
	}
	if cfg.LambdaMSE > 0 {
		if mseSlots < 1 {
			return nil, fmt.Errorf("objective: MSE needs at least one pair")
		}
		in := newPairInputs(b, "mse", mseSlots)
		s := engine.PairDot(z, in.I, in.J)
		r := G.Must(G.Sub(in.Value, s))
		add("mse", G.Must(G.Sum(G.Must(G.HadamardProd(in.Weight, G.Must(G.Square(r)))))), cfg.LambdaMSE)
		l.MSE = &in
	}
	l.Total = total
	return l, nil
}

// Target returns the MSE target t = 1 − 1/d^α for a hop distance d ≥ 1;
// unreachable pairs (reachable = false) get t = 1 (1/d^α = 0).
func Target(d int, reachable bool, alpha float64) float64 {
	if !reachable {
		return 1
	}
	return 1 - 1/math.Pow(float64(d), alpha)
}

// Fill binds a term's inputs: pairs (I[p], J[p]) with values v[p] (labels
// for BCE; targets t for MSE, converted to the c = 1 − 2t the graph uses when
// mse is true). Unused slots are padded with pair (0, 0) and weight 0; used
// slots weigh 1/len(I) (1/(4·len(I)) for MSE). It errors when there are more
// pairs than slots.
func Fill(in *PairInputs, I, J []int, v []float64, mse bool, ibuf, jbuf []int, vbuf, wbuf []float64) error {
	if len(I) > in.Slots {
		return fmt.Errorf("objective: %d pairs for %d slots", len(I), in.Slots)
	}
	if len(I) == 0 {
		return fmt.Errorf("objective: empty pair set")
	}
	w := 1 / float64(len(I))
	if mse {
		w /= 4
	}
	for p := 0; p < in.Slots; p++ {
		if p < len(I) {
			ibuf[p], jbuf[p], wbuf[p] = I[p], J[p], w
			if mse {
				vbuf[p] = 1 - 2*v[p]
			} else {
				vbuf[p] = v[p]
			}
		} else {
			ibuf[p], jbuf[p], vbuf[p], wbuf[p] = 0, 0, 0, 0
		}
	}
	if err := engine.LetInts(in.I, ibuf); err != nil {
		return err
	}
	if err := engine.LetInts(in.J, jbuf); err != nil {
		return err
	}
	if err := engine.LetFloats(in.Value, vbuf); err != nil {
		return err
	}
	return engine.LetFloats(in.Weight, wbuf)
}
