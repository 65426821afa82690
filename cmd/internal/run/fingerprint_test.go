package run

import (
	"path/filepath"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestFingerprintGolden pins Fingerprint on generated (identity and
// constant inputs), user and the paper's graphs: a dataset keeps its
// fingerprint, and so its checkpoints, whatever form its ids and features
// are stored in (since issue 37 a
// generated graph's ids are implicit and a constant feature is one shared
// row; the values hashed are still every node's). The values are the ones
// 2864e3d computed, when every graph stored N ids and N feature rows.
func TestFingerprintGolden(t *testing.T) {
	user := filepath.Join("..", "..", "..", "data", "testdata", "formats", "graph.txt")
	for _, c := range []struct{ dataset, features, want string }{
		{"grid:6x6", data.FeaturesConstant, "8a6196e6d80bf51e65580487dab739bb7d4490ba8930ba355ae677e1edee3252"},
		{"grid:6x6", data.FeaturesIdentity, "9f14d65c7546d76e926491c935fa5a32320f7ac8df22d99df84ed7e87f74fd0b"},
		{"rgg:300:6", data.FeaturesConstant, "b4b1479a4906d837d2e98b916b369a5072d8bc3e315475caf83c528047e32de2"},
		{"caveman:4x5", data.FeaturesConstant, "5bbec73df2a180220d2d68a2b20a6c4940738ecd1940ed49c529e13e1846a528"},
		{user, data.FeaturesConstant, "228fe948c07d5529eed81d7aafbddd578b5ebba2fa1cc91a88c8d1405f3b1903"},
		{user, data.FeaturesIdentity, "91ea0d8f4bcd2ef5db505ceda01288a80099a5216d226cc0b903c6ed2ec65c8f"},
		{"communities", "", "fcc21fd03bbe96ae9233fcf4ab085bbd0c03f0d4a3da1b95e356b6d39722eadd"},
		{"email", "", "f32d0a250f9d8380a3e58b5292ee58007b94c4d7ff662b20b4958cdb89f7fa7f"},
		{"protein", "", "795deb1e71315cc0bd3bdd6f78dae3f0f365058a0fee4571655496d4fa4e648f"},
	} {
		cfg := Default()
		cfg.Dataset, cfg.Features = c.dataset, c.features
		ds, err := LoadDataset(cfg)
		if err != nil {
			if c.dataset == "email" || c.dataset == "protein" {
				t.Logf("%s: %v (skipped)", c.dataset, err)
				continue
			}
			t.Fatal(err)
		}
		if got := Fingerprint(ds); got != c.want {
			t.Errorf("%s --features %q: fingerprint %s, want %s", c.dataset, c.features, got, c.want)
		}
	}
}
