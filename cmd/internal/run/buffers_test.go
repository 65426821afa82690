package run

import (
	"math"
	"testing"

	"github.com/ignn/ignn/models"
)

// TestSharedBuffersBitIdentical trains every model twice from one seed —
// once with the engine's output buffers shared by liveness (the default),
// once with a private buffer per op — and requires the same loss at every
// epoch and the same embeddings, bit for bit, with an evaluation between
// steps (the forward graph draws from the same arena as the trainer).
func TestSharedBuffersBitIdentical(t *testing.T) {
	defer func() { privateBuffers = false }()
	for _, m := range models.Names() {
		for _, dt := range []DType{Float32, Float64} {
			if dt == "float64" && m != "gcn" && m != "gat" {
				continue
			}
			cfg := Default()
			cfg.Model, cfg.Variant, cfg.DType = m, Both, dt
			e, _ := models.Lookup(m)
			cfg.ModelConfig.Layers = e.Config().Layers
			run := func(private bool) ([]float64, []float64, *Built) {
				privateBuffers = private
				c := benchCellOf(t, cfg)
				var losses []float64
				for e := 0; e < 4; e++ {
					if err := c.Feed(e); err != nil {
						t.Fatal(err)
					}
					st, err := c.tr.Step()
					if err != nil {
						t.Fatal(err)
					}
					losses = append(losses, st.Loss)
					if e == 1 {
						if _, _, err := c.Evaluate(); err != nil {
							t.Fatal(err)
						}
					}
				}
				z, _, err := c.Embeddings()
				if err != nil {
					t.Fatal(err)
				}
				return losses, z, c
			}
			l1, z1, shared := run(false)
			l2, z2, private := run(true)
			bp := shared.tr.Buffers
			// A graph of a few ops (the free table) may have nothing to share;
			// sharing must then cost nothing.
			if (bp.Ops >= 10 && (bp.Shared == 0 || bp.After >= bp.Before)) || bp.After > bp.Before || private.tr.Buffers.Ops != 0 {
				t.Fatalf("%s %s: sharing did not happen: shared %+v, private %+v", m, dt, bp, private.tr.Buffers)
			}
			for e := range l1 {
				if math.Float64bits(l1[e]) != math.Float64bits(l2[e]) {
					t.Fatalf("%s %s epoch %d: loss %v shared vs %v private", m, dt, e, l1[e], l2[e])
				}
			}
			for i := range z1 {
				if math.Float64bits(z1[i]) != math.Float64bits(z2[i]) {
					t.Fatalf("%s %s: embedding %d: %v shared vs %v private", m, dt, i, z1[i], z2[i])
				}
			}
			t.Logf("%s %s: %d of %d outputs share %d buffers: %d → %d KB", m, dt, bp.Shared, bp.Ops, bp.Buffers, bp.Before>>10, bp.After>>10)
			shared.Close()
			private.Close()
		}
	}
}
