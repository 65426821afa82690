package engine

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gorgonia.org/tensor"
)

// Init fills a parameter of the given shape; fanIn and fanOut are the sizes
// of the first and last axis.
type Init func(rng *rand.Rand, data []float64, fanIn, fanOut int)

// Glorot is the Xavier uniform initialiser U(±gain·√(6/(fanIn+fanOut))).
func Glorot(gain float64) Init {
	return func(rng *rand.Rand, data []float64, fanIn, fanOut int) {
		a := gain * math.Sqrt(6/float64(fanIn+fanOut))
		for i := range data {
			data[i] = (2*rng.Float64() - 1) * a
		}
	}
}

// UniformFanIn is PyTorch's nn.Linear default U(±1/√fanIn) (for weights with
// kaiming_uniform(a=√5) and for biases alike).
func UniformFanIn(fanIn int) Init {
	return func(rng *rand.Rand, data []float64, _, _ int) {
		a := 1 / math.Sqrt(float64(fanIn))
		for i := range data {
			data[i] = (2*rng.Float64() - 1) * a
		}
	}
}

// Zeros initialises to 0.
func Zeros(_ *rand.Rand, data []float64, _, _ int) {
	for i := range data {
		data[i] = 0
	}
}

// Constant initialises every entry to v.
func Constant(v float64) Init {
	return func(_ *rand.Rand, data []float64, _, _ int) {
		for i := range data {
			data[i] = v
		}
	}
}

// ParamStore owns the parameter tensors of a model, keyed by unique
// hierarchical names ("gcn.0.W"). The training and evaluation graphs both
// bind the same tensors, so Adam's in-place updates are seen by both.
// Parameters are initialised from the "init" stream in name order of first
// request, which is deterministic for a deterministic builder.
type ParamStore struct {
	DT tensor.Dtype
	// PrivateBuffers turns buffer sharing off: every op of the graphs built
	// on this store then keeps its own output buffer (see planBuffers).
	// Results are bit-identical either way; sharing only lowers the peak.
	PrivateBuffers bool
	arena          Arena
	rng            *rand.Rand
	names          []string
	vals           map[string]*tensor.Dense
}

// NewParamStore returns an empty store for dtype dt (Float32 or Float64).
func NewParamStore(dt tensor.Dtype, rng *rand.Rand) *ParamStore {
	if dt != tensor.Float32 && dt != tensor.Float64 {
		panic(fmt.Sprintf("engine: unsupported dtype %v", dt))
	}
	return &ParamStore{DT: dt, rng: rng, vals: map[string]*tensor.Dense{}}
}

// Get returns the tensor called name, creating and initialising it on the
// first call. It panics if name was created with another shape.
func (s *ParamStore) Get(name string, shape []int, init Init) *tensor.Dense {
	if t, ok := s.vals[name]; ok {
		if !t.Shape().Eq(tensor.Shape(shape)) {
			panic(fmt.Sprintf("engine: parameter %q has shape %v, requested %v", name, t.Shape(), shape))
		}
		return t
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	buf := make([]float64, n)
	fanIn, fanOut := shape[0], shape[len(shape)-1]
	init(s.rng, buf, fanIn, fanOut)
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(s.DT))
	switch t.Dtype() {
	case tensor.Float64:
		d := vals[float64](t)
		copy(d, buf)
	case tensor.Float32:
		d := vals[float32](t)
		for i, v := range buf {
			d[i] = float32(v)
		}
	}
	s.vals[name] = t
	s.names = append(s.names, name)
	return t
}

// Names lists the parameters in creation order.
func (s *ParamStore) Names() []string { return append([]string(nil), s.names...) }

// Tensor returns the named parameter or nil.
func (s *ParamStore) Tensor(name string) *tensor.Dense { return s.vals[name] }

// Count returns the number of scalar parameters.
func (s *ParamStore) Count() int {
	n := 0
	for _, t := range s.vals {
		n += t.Shape().TotalSize()
	}
	return n
}

// ToFloat64 copies a float tensor's data into a new []float64.
func ToFloat64(t *tensor.Dense) []float64 {
	switch t.Dtype() {
	case tensor.Float64:
		d := vals[float64](t)
		return append([]float64(nil), d...)
	case tensor.Float32:
		d := vals[float32](t)
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	}
	panic(fmt.Sprintf("engine: tensor of dtype %v is not float", t.Dtype()))
}

// FromFloat64 returns a new tensor of dtype dt and the given shape holding v.
func FromFloat64(dt tensor.Dtype, v []float64, shape ...int) *tensor.Dense {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(dt))
	SetFloat64(t, v)
	return t
}

// SetFloat64 overwrites t's data with v (converting to t's dtype).
func SetFloat64(t *tensor.Dense, v []float64) {
	switch t.Dtype() {
	case tensor.Float64:
		d := vals[float64](t)
		copy(d, v)
	case tensor.Float32:
		d := vals[float32](t)
		for i, x := range v {
			d[i] = float32(x)
		}
	default:
		panic(fmt.Sprintf("engine: tensor of dtype %v is not float", t.Dtype()))
	}
}
