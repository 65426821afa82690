package models

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
)

// appnpConfig is APPNP's configuration with K and α set through its
// options, as the CLI sets them.
func appnpConfig(t *testing.T, k int, alpha float64) (Entry, Config) {
	t.Helper()
	e, _ := Lookup("appnp")
	cfg := e.Config()
	if err := appnpK.Apply(&cfg, k); err != nil {
		t.Fatal(err)
	}
	if err := appnpAlpha.Apply(&cfg, alpha); err != nil {
		t.Fatal(err)
	}
	return e, cfg
}

// TestAPPNP checks APPNP against its formula with explicit loops on a
// 6-node graph: H⁰ = ReLU(X·W₀ + b₀)·W₁ + b₁, then K = 3 steps of
// H ← (1−α)·Â·H + α·H⁰ with α = 0.2 and Â = D^{-1/2}(A+I)D^{-1/2} (degrees
// counting the self-loop), rows L2-normalised. Its gradient at the
// default K and α is checked by TestModelGradients, at these by
// TestAPPNPGradient.
func TestAPPNP(t *testing.T) {
	const k, alpha, n = 3, 0.2, 6
	in := tiny()
	in.X = &engine.Features{N: n, Dense: enginetest.RandomValues(81, 18), DenseDim: 3}
	e, cfg := appnpConfig(t, k, alpha)
	cfg.Hidden, cfg.Out = 4, 2
	got, ps := forwardModel(t, e, cfg, in, map[string][]float64{
		"appnp.mlp.0.b": {0.3, -0.2, 0.1, -0.4}, "appnp.mlp.1.b": {-0.1, 0.25}})
	h1 := matmul(mat{n, 3, in.X.Dense}, param(ps, "appnp.mlp.0.Wd", 3, 4))
	b0 := param(ps, "appnp.mlp.0.b", 1, 4)
	for i := range h1.v {
		h1.v[i] = max(0, h1.v[i]+b0.v[i%4])
	}
	h0 := matmul(h1, param(ps, "appnp.mlp.1.W", 4, 2))
	b1 := param(ps, "appnp.mlp.1.b", 1, 2)
	for i := range h0.v {
		h0.v[i] += b1.v[i%2]
	}
	h := h0
	for range k {
		h = gcnPropagate(in.Adj, h)
		for i := range h.v {
			h.v[i] = (1-alpha)*h.v[i] + alpha*h0.v[i]
		}
	}
	normalizeRows(h)
	near(t, "appnp", got, h)
}

// TestAPPNPGradient checks APPNP's gradient by central differences at
// options other than the defaults TestModelGradients uses — K = 3, and
// α = 0.3, 0 (pure propagation) and 1 (the MLP alone) — with dropout on.
func TestAPPNPGradient(t *testing.T) {
	for _, alpha := range []float64{0.3, 0, 1} {
		e, cfg := appnpConfig(t, 3, alpha)
		cfg.Hidden, cfg.Out, cfg.Dropout = 4, 3, 0.3
		if err := checkModelGradient(t, e, cfg); err != nil {
			t.Errorf("α = %g: %v", alpha, err)
		}
	}
}

// TestAPPNPOptions: K and α are stored in Config.Own only away from their
// defaults, and a value out of range is refused with what it accepts.
func TestAPPNPOptions(t *testing.T) {
	_, cfg := appnpConfig(t, 10, 0.1)
	if cfg.Own != nil {
		t.Errorf("defaults stored: %v", cfg.Own)
	}
	_, cfg = appnpConfig(t, 5, 0.5)
	if appnpK.Int(cfg) != 5 || appnpAlpha.Float(cfg) != 0.5 || len(cfg.Own) != 2 {
		t.Errorf("K, α = %d, %g (Own %v)", appnpK.Int(cfg), appnpAlpha.Float(cfg), cfg.Own)
	}
	for _, bad := range []struct {
		o    Option
		v    any
		want string
	}{
		{appnpK, 0, "--appnp-k must be an integer in 1…1024, got 0"},
		{appnpAlpha, 1.5, "--appnp-alpha must be in [0, 1], got 1.5"},
		{appnpAlpha, math.NaN(), "--appnp-alpha must be in [0, 1], got NaN"},
	} {
		if err := bad.o.Apply(&cfg, bad.v); err == nil || err.Error() != bad.want {
			t.Errorf("%v: %v, want %q", bad.v, err, bad.want)
		}
	}
}
