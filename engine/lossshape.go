package engine

import (
	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// lossShape is the gorgonia typing our fused loss ops share (PairLoss,
// RankLoss): the forward op maps Z (N×D) to a scalar; its gradient op
// (grad set) maps (Z, the scalar's gradient) to dZ, shaped like Z.
type lossShape struct{ grad bool }

func (s lossShape) Arity() int {
	if s.grad {
		return 2
	}
	return 1
}

func (s lossShape) Type() hm.Type {
	a := hm.TypeVariable('a')
	if s.grad {
		return hm.NewFnType(tt(2, a), a, tt(2, a))
	}
	return hm.NewFnType(tt(2, a), a)
}

func (s lossShape) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if s.grad {
		return in[0].(tensor.Shape).Clone(), nil
	}
	return tensor.ScalarShape(), nil
}

func (s lossShape) DiffWRT(int) []bool { return []bool{true} }
