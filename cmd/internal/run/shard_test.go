package run

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestEmbedShards: the embeddings of a checkpoint computed as 4 shards
// cover every node once and equal `--shard 0/1` (one process through the
// same chunks) bit for bit; a shard may hold no chunk; a whole-graph model
// is refused with the reason.
func TestEmbedShards(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
	miniBatchRecipe(&cfg)
	cfg.Save = t.TempDir()
	if _, err := Run(context.Background(), cfg, Hooks{}); err != nil {
		t.Fatal(err)
	}
	ck, err := LoadCheckpoint(cfg.Save)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := LoadDataset(ck.Config)
	if err != nil {
		t.Fatal(err)
	}
	rows0, z0, d, ids, err := EmbedShard(ck, ds, 0, 1, 40)
	if err != nil || len(rows0) != ds.NumNodes() || len(z0) != d*len(rows0) || len(ids) != len(rows0) {
		t.Fatalf("one shard: %v, %d rows of %d nodes, %d values", err, len(rows0), ds.NumNodes(), len(z0))
	}
	one := make([]float32, len(z0))
	for k, r := range rows0 {
		copy(one[r*d:(r+1)*d], z0[k*d:(k+1)*d])
	}
	for _, n := range []int{4, 60} { // 60 shards: more than chunks, some empty
		got := make([]float32, len(one))
		seen := make([]int, len(rows0))
		for i := range n {
			rows, z, _, _, err := EmbedShard(ck, ds, i, n, 40)
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range rows {
				seen[r]++
				copy(got[r*d:(r+1)*d], z[k*d:(k+1)*d])
			}
		}
		for r, c := range seen {
			if c != 1 {
				t.Fatalf("%d shards: row %d embedded %d times", n, r, c)
			}
		}
		if !slices.Equal(got, one) {
			t.Fatalf("%d shards differ from one", n)
		}
	}
	whole := shortRun("gcn")
	whole.Save = t.TempDir()
	if _, err := Run(context.Background(), whole, Hooks{}); err != nil {
		t.Fatal(err)
	}
	wck, _ := LoadCheckpoint(whole.Save)
	wds, _ := LoadDataset(wck.Config)
	if _, _, _, _, err := EmbedShard(wck, wds, 0, 2, 0); err == nil || !strings.Contains(err.Error(), "whole graph") {
		t.Fatalf("a whole-graph model sharded: %v", err)
	}
}
