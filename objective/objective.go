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
	LambdaMSE float64 // weight of the distance term (the paper's MSE, or Rank)
	Alpha     float64 // exponent of the distance transform 1 − 1/d^α
	// Distance picks the distance term: "" or DistanceMSE (the paper's),
	// or DistanceRank (a logistic ranking loss on triples, temperature
	// RankTemp).
	Distance DistanceLoss
	RankTemp float64
}

// DistanceLoss names the distance term of the objective.
type DistanceLoss string

// The distance terms.
const (
	// DistanceMSE is the paper's: ((1 − s_ij)/2 − (1 − 1/d^α))² over pairs.
	DistanceMSE DistanceLoss = "mse"
	// DistanceRank orders distances instead of matching a target: over
	// triples (i, j, k) with d(i, j) < d(i, k), softplus((s_ik − s_ij)/T)
	// (engine.RankLoss). It asks nothing of the cosines' level, so no
	// target is infeasible for unit vectors, and far pairs are ordered as
	// much as near ones.
	DistanceRank DistanceLoss = "rank"
)

// ParseDistanceLoss reads --distance-loss.
func ParseDistanceLoss(s string) (DistanceLoss, error) {
	switch d := DistanceLoss(s); d {
	case DistanceMSE, DistanceRank:
		return d, nil
	}
	return "", fmt.Errorf("unknown --distance-loss %q (valid: mse, rank)", s)
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
	if c.Distance == DistanceRank && (!(c.RankTemp > 0) || math.IsInf(c.RankTemp, 0)) {
		return fmt.Errorf("objective: the ranking temperature must be a finite number > 0, got %g", c.RankTemp)
	}
	return nil
}

// Loss is the built objective.
type Loss struct {
	Total    *G.Node
	Terms    map[string]*G.Node // "bce", "mse" or "rank": unweighted means
	BCE, MSE *Term              // nil when the term's λ is 0
	Rank     *TripleTerm        // the ranking term's triples (DistanceRank)
}

// Build adds the loss over embeddings z (N×D, rows L2-normalised) to b's
// graph. The pair score is s = ⟨z_i, z_j⟩ (the cosine), used as the logit:
//
//	BCE = Σ_p w_p·(softplus(s_p) − y_p·s_p)           (stable on logits)
//	MSE = Σ_p w_p·((1 − s_p)/2 − t_p)²,  t = 1 − 1/d^α (unreachable: 1)
//
// written as Σ (w/4)·(c − s)² with the input c = 1 − 2t. Terms whose λ is 0
// are not built at all. bceSlots sizes the BCE pair inputs; mse says how
// the MSE gets its pairs.
func Build(b *engine.Builder, z *G.Node, cfg Config, bceSlots int, mse MSEInput) (*Loss, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l := &Loss{Terms: map[string]*G.Node{}}
	zd := z
	if mse.On != nil {
		zd = mse.On
	}
	var terms G.Nodes
	var lambdas []float64
	add := func(name string, term *G.Node, lambda float64) {
		l.Terms[name] = term
		terms, lambdas = append(terms, term), append(lambdas, lambda)
	}
	if cfg.LambdaBCE > 0 {
		if bceSlots < 1 {
			return nil, fmt.Errorf("objective: BCE needs at least one pair")
		}
		in := newTerm(bceSlots, false)
		add("bce", engine.PairLoss(engine.Logistic, z, &in.set), cfg.LambdaBCE)
		l.BCE = in
	}
	if cfg.LambdaMSE > 0 && cfg.Distance == DistanceRank {
		if mse.Triples < 1 {
			return nil, fmt.Errorf("objective: the ranking term needs at least one triple")
		}
		in := &TripleTerm{Slots: mse.Triples}
		add("rank", engine.RankLoss(zd, &in.set, cfg.RankTemp), cfg.LambdaMSE)
		l.Rank = in
	} else if cfg.LambdaMSE > 0 && len(mse.All) > 0 {
		if mse.AllPairs < 1 {
			return nil, fmt.Errorf("objective: MSE needs at least one pair")
		}
		// Every pair, fixed for the run: one fused op, nothing to bind.
		add("mse", engine.PairMSE(zd, mse.All, 1/(4*float64(mse.AllPairs))), cfg.LambdaMSE)
	} else if cfg.LambdaMSE > 0 {
		if mse.Slots < 1 {
			return nil, fmt.Errorf("objective: MSE needs at least one pair")
		}
		in := newTerm(mse.Slots, true)
		add("mse", engine.PairLoss(engine.Square, zd, &in.set), cfg.LambdaMSE)
		l.MSE = in
	}
	if len(terms) > 0 {
		// λ-weighted sum, folded left as Mul and Add would: one op.
		l.Total = engine.WeightedSum(terms, lambdas)
	}
	return l, nil
}

// MSEInput says how the MSE term gets its pairs: Slots pair slots bound
// every epoch (Loss.MSE, Term.Bind), or, when All is set, every intra-graph
// pair of the run fixed once — AllPairs of them, with targets C = 1 − 2t in
// the blocks — and fused into engine.PairMSE (Loss.MSE is then nil).
type MSEInput struct {
	Slots    int
	All      []engine.MSEBlock
	AllPairs int
	Triples  int // the ranking term's triple slots (DistanceRank)
	// On, when set, is the embedding the distance term reads (the same
	// values as z with a branch's gradient stopped: engine.Builder's
	// DistanceView); nil: z.
	On *G.Node
}

// Target returns the MSE target t = 1 − 1/d^α for a hop distance d ≥ 1;
// unreachable pairs (reachable = false) get t = 1 (1/d^α = 0).
func Target(d int, reachable bool, alpha float64) float64 {
	if !reachable {
		return 1
	}
	return 1 - 1/math.Pow(float64(d), alpha)
}
