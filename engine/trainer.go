package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TrainOptions configures the optimiser.
type TrainOptions struct {
	LR          float64 // Adam learning rate
	WeightDecay float64 // coupled L2 (PyTorch Adam weight_decay)
}

// Trainer runs one training graph: a TapeMachine computes the loss and its
// symbolic gradient, Adam updates the parameters in place. Build it once and
// call Step every epoch; per-epoch inputs are rebound by the builder's feeds
// and dropout masks (drawn from the dropout stream) before each run.
type Trainer struct {
	b      *Builder
	loss   *G.Node
	lossV  G.Value
	terms  []string
	termV  []*G.Value
	vm     G.VM
	Adam   *Adam
	params G.Nodes
	grads  G.Nodes // grads[i] = ∂loss/∂params[i], read after each run
	rng    *rand.Rand
	// Buffers is what sharing output buffers saved (zero when the store
	// has PrivateBuffers).
	Buffers BufferPlan
}

// DivergedError reports a non-finite loss.
type DivergedError struct {
	Term  string // the first non-finite term, or "loss"
	Value float64
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("engine: %s is %v", e.Term, e.Value)
}

// NewTrainer differentiates loss with respect to every parameter of b's graph
// and compiles the machine. terms are extra scalar nodes (e.g. "bce", "mse")
// read on every step for logging and divergence reports. rng is the dropout
// stream.
func NewTrainer(b *Builder, loss *G.Node, terms map[string]*G.Node, opt TrainOptions, rng *rand.Rand) (t *Trainer, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("engine: building trainer: %v", r)
		}
	}()
	if !loss.IsScalar() {
		return nil, fmt.Errorf("engine: loss has shape %v, want a scalar", loss.Shape())
	}
	params := b.ParamNodes()
	if len(params) == 0 {
		return nil, fmt.Errorf("engine: the model has no parameters")
	}
	grads, err := G.Grad(loss, params...)
	if err != nil {
		return nil, fmt.Errorf("engine: differentiating the loss: %w", err)
	}
	t = &Trainer{b: b, loss: loss, rng: rng, params: params, grads: grads}
	G.Read(loss, &t.lossV)
	names := make([]string, 0, len(terms))
	for k := range terms {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := new(G.Value)
		G.Read(terms[k], v)
		t.terms = append(t.terms, k)
		t.termV = append(t.termV, v)
	}
	if !b.Params.PrivateBuffers {
		pinned := append(G.Nodes{loss}, grads...)
		for _, n := range terms {
			pinned = append(pinned, n)
		}
		if t.Buffers, err = planBuffers(&b.Params.arena, b.G, pinned...); err != nil {
			return nil, fmt.Errorf("engine: planning buffers: %w", err)
		}
	}
	// No BindDualValues: Adam reads the gradient nodes' values after the
	// run. Binding dual values would add every gradient into a second
	// buffer during the run (0 + g: the same numbers) at the cost of about
	// five allocations per parameter per step inside gorgonia. The
	// gradient nodes are roots of the graph, so gorgonia keeps their
	// registers to the end of the run, and planBuffers pins them.
	t.vm = G.NewTapeMachine(b.G)
	t.Adam = NewAdam(opt.LR, opt.WeightDecay)
	return t, nil
}

// StepResult is what one optimisation step observed before the update.
type StepResult struct {
	Loss  float64
	Terms map[string]float64
}

// Step fills the per-run inputs, runs forward and backward, checks the loss
// is finite and applies one Adam update. On a non-finite loss it returns a
// *DivergedError naming the first non-finite term and leaves the parameters
// untouched.
func (t *Trainer) Step() (StepResult, error) {
	var res StepResult
	if err := t.b.fill(t.rng); err != nil {
		return res, err
	}
	err := t.vm.RunAll()
	defer t.vm.Reset()
	if err != nil {
		return res, fmt.Errorf("engine: running the training graph: %w", err)
	}
	res.Loss = scalar(t.lossV)
	res.Terms = make(map[string]float64, len(t.terms))
	for i, k := range t.terms {
		res.Terms[k] = scalar(*t.termV[i])
	}
	if math.IsNaN(res.Loss) || math.IsInf(res.Loss, 0) {
		for _, k := range t.terms {
			if v := res.Terms[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return res, &DivergedError{Term: k, Value: v}
			}
		}
		return res, &DivergedError{Term: "loss", Value: res.Loss}
	}
	if err := t.Adam.Step(t.params, t.grads); err != nil {
		// A finite loss can still leave non-finite parameters (an
		// overflowing update): Step reports the first, and the run stops
		// before they poison the next epoch.
		var d *DivergedError
		if errors.As(err, &d) {
			return res, d
		}
		return res, fmt.Errorf("engine: Adam step: %w", err)
	}
	return res, nil
}

// Close releases the machine. gorgonia sets a finalizer on every
// TapeMachine, and the machine sits in a reference cycle with its graph; Go
// never collects a cycle holding a finalizer, so without clearing it every
// finished run would keep all its tensors alive (measured: ≈0.9 GB per P-GNN
// protein run inside one `ignn compare`, until the OOM killer stopped it).
func (t *Trainer) Close() { closeVM(t.vm) }

// CloseMachine closes a gorgonia machine and clears the finalizer that
// would otherwise keep its graph alive (see Trainer.Close).
func CloseMachine(vm G.VM) { closeVM(vm) }

// ScalarValue reads a scalar gorgonia value (F32, F64 or a one-element
// tensor) as float64.
func ScalarValue(v G.Value) float64 { return scalar(v) }

func closeVM(vm G.VM) {
	vm.Close()
	runtime.SetFinalizer(vm, nil)
}

func scalar(v G.Value) float64 {
	switch x := v.(type) {
	case *G.F64:
		return float64(*x)
	case *G.F32:
		return float64(*x)
	case *tensor.Dense:
		return ToFloat64(x)[0]
	}
	panic(fmt.Sprintf("engine: cannot read %T as a scalar", v))
}

// Forward runs a forward-only graph (built with train=false and sharing the
// parameter tensors) and returns the value of one output node.
type Forward struct {
	b       *Builder
	vm      G.VM
	node    *G.Node    // the output
	out     G.Value    // its value during a run's read
	Buffers BufferPlan // see Trainer.Buffers
	row     []float64  // RunRows' row buffer
}

// NewForward compiles b's graph for forward runs of out.
func NewForward(b *Builder, out *G.Node) (f *Forward, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("engine: building forward graph: %v", r)
		}
	}()
	// The output is read from its node after a run, not by a Read
	// instruction: the machine binds each node to its value, and the
	// output, pinned by the buffer plan, keeps a buffer no later op
	// writes (a Read copied all of it at every run: an inference chunk's
	// 65,536 × 32 values to use its seeds' rows).
	f = &Forward{b: b, node: out}
	if !b.Params.PrivateBuffers {
		if f.Buffers, err = planBuffers(&b.Params.arena, b.G, out); err != nil {
			return nil, fmt.Errorf("engine: planning buffers: %w", err)
		}
	}
	f.vm = G.NewTapeMachine(b.G)
	return f, nil
}

// Run evaluates the graph (feeds are filled from rng, which may be nil when
// the graph has none) and returns a copy of the output as float64 with its
// shape.
func (f *Forward) Run(rng *rand.Rand) (out []float64, shape tensor.Shape, err error) {
	err = f.run(rng, func() error {
		if d, ok := f.out.(*tensor.Dense); ok {
			out, shape = ToFloat64(d), d.Shape().Clone()
		} else {
			out, shape = []float64{scalar(f.out)}, tensor.ScalarShape()
		}
		return nil
	})
	return out, shape, err
}

// run fills the feeds from rng, evaluates the graph and calls read while
// the output (f.out) is still the machine's, before the machine resets.
func (f *Forward) run(rng *rand.Rand, read func() error) error {
	if err := f.b.fill(rng); err != nil {
		return err
	}
	err := f.vm.RunAll()
	defer f.vm.Reset()
	if err != nil {
		return fmt.Errorf("engine: running the forward graph: %w", err)
	}
	f.out = f.node.Value()
	defer func() { f.out = nil }()
	return read()
}

// RunRows evaluates the graph as Run does and hands put the first n rows
// of its output (a matrix), each as float64 in one buffer reused from row
// to row (put must not keep it), in row order: Run's values, without a
// float64 copy of the whole output (an inference chunk reads only its
// seeds' rows of the slots). It returns the output's width.
func (f *Forward) RunRows(rng *rand.Rand, n int, put func(r int, row []float64)) (d int, err error) {
	err = f.run(rng, func() error {
		t, ok := f.out.(*tensor.Dense)
		if !ok || t.Dims() != 2 || n > t.Shape()[0] {
			return fmt.Errorf("engine: RunRows: %d rows of an output of shape %v", n, f.out.Shape())
		}
		d = t.Shape()[1]
		if cap(f.row) < d {
			f.row = make([]float64, d)
		}
		row := f.row[:d]
		switch t.Dtype() {
		case tensor.Float64:
			v := vals[float64](t)
			for r := range n {
				copy(row, v[r*d:(r+1)*d])
				put(r, row)
			}
		case tensor.Float32:
			v := vals[float32](t)
			for r := range n {
				for j, x := range v[r*d : (r+1)*d] {
					row[j] = float64(x)
				}
				put(r, row)
			}
		default:
			return fmt.Errorf("engine: RunRows: output of dtype %v", t.Dtype())
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return d, nil
}

// Close releases the machine (see Trainer.Close).
func (f *Forward) Close() { closeVM(f.vm) }
