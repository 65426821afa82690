package report

import "testing"

// TestHeading: settings every row shares go in one phrase; those that
// differ are listed by variant when the models agree, by row when they do
// not (a grid whose cells resolved differently says so per cell); reference
// rows (no settings) are left out.
func TestHeading(t *testing.T) {
	paper := Settings{Epochs: 200, Steps: "1 whole-graph step", Input: "features", Distance: "none"}
	both := Settings{Epochs: 200, Steps: "1 whole-graph step", Input: "features + hash", Distance: "mse"}
	large := Settings{Epochs: 10, Steps: "50 mini-batch steps of 512 positives", Input: "features + landmark:64 + skip", Distance: "rank"}
	for _, c := range []struct {
		name        string
		rows        []Row
		common, per string
	}{
		{"one setting", []Row{{Model: "gcn", Variant: "base", Settings: paper}, {Model: "sage", Variant: "base", Settings: paper}},
			"200 epochs, steps per epoch 1 whole-graph step, input features, distance term none", ""},
		{"by variant", []Row{{Model: "gcn", Variant: "base", Settings: paper}, {Model: "gcn", Variant: "both", Settings: both},
			{Model: "sage", Variant: "base", Settings: paper}, {Model: "sage", Variant: "both", Settings: both}, {Model: "(input)", Variant: "landmark:64"}},
			"200 epochs, steps per epoch 1 whole-graph step", "resolved per variant (input; distance term): base: features; none | both: features + hash; mse"},
		{"by row", []Row{{Model: "gcn", Variant: "both", Settings: both}, {Model: "gin", Variant: "both", Settings: large}},
			"", "resolved per cell (epochs; steps per epoch; input; distance term): gcn both: 200; 1 whole-graph step; features + hash; mse | gin both: 10; 50 mini-batch steps of 512 positives; features + landmark:64 + skip; rank"},
	} {
		common, per := Heading(c.rows)
		if common != c.common || per != c.per {
			t.Errorf("%s:\n got %q\n     %q\nwant %q\n     %q", c.name, common, per, c.common, c.per)
		}
	}
}
