package main

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/cmd/internal/slurm"
	"github.com/ignn/ignn/data"
)

// Sharded embedding (issue 37): the chunked inference of a checkpoint split
// into parts that separate processes — Slurm array tasks — compute, each
// into OUT.shard-I-of-N.npz (arrays rows: the nodes' global rows, z: their
// float32 embeddings, meta: nodes, width, I, N, the node ids' checksum and
// the node slots), then gathered into the file one process writes.

// shardPath is part i of n of out.
func shardPath(out string, i, n int) string {
	return fmt.Sprintf("%s.shard-%d-of-%d.npz", strings.TrimSuffix(out, filepath.Ext(out)), i, n)
}

// idSum is a checksum of the row order's node ids (FNV-1a of their
// little-endian bytes), as two exact 32-bit halves.
func idSum(ids []uint64) (float64, float64) {
	h := fnv.New64a()
	var b [8]byte
	for _, id := range ids {
		binary.LittleEndian.PutUint64(b[:], id)
		h.Write(b[:])
	}
	s := h.Sum64()
	return float64(s & 0xffffffff), float64(s >> 32)
}

// writeShard computes part sh of the checkpoint's embeddings and writes it
// atomically.
func writeShard(stdout io.Writer, ck *run.Checkpoint, ds *data.Dataset, out string, sh grid.Shard, slots int) error {
	rows, z, d, ids, err := run.EmbedShard(ck, ds, sh.I, sh.N, slots)
	if err != nil {
		return err
	}
	lo, hi := idSum(ids)
	r := make([]float64, len(rows))
	for k, v := range rows {
		r[k] = float64(v)
	}
	zz := make([]float64, len(z))
	for k, v := range z {
		zz[k] = float64(v)
	}
	path := shardPath(out, sh.I, sh.N)
	if _, err := data.WriteNPZ(path, []data.NPZArray{
		{Name: "rows", Shape: []int{len(r)}, Data: r},
		{Name: "z", Shape: []int{len(rows), d}, Data: zz, F32: true},
		{Name: "meta", Shape: []int{7}, Data: []float64{float64(len(ids)), float64(d), float64(sh.I), float64(sh.N), lo, hi, float64(slots)}},
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote part %d of %d: %d of %d nodes' embeddings to %s\n", sh.I, sh.N, len(rows), len(ids), path)
	return nil
}

// gatherShards reads the n parts of out and assembles the embeddings of
// ds's nodes in row order, checking that the parts are of this data, agree
// with each other and hold every node exactly once. Errors name the part.
func gatherShards(out string, ds *data.Dataset, n int) ([]float64, int, []uint64, error) {
	if n < 1 {
		return nil, 0, nil, usagef("--gather needs --shards N, the number of parts")
	}
	ids := ds.Union().IDs()
	lo, hi := idSum(ids)
	var z []float64
	d, slots := 0, -1.0
	seen := make([]bool, len(ids))
	for i := range n {
		path := shardPath(out, i, n)
		a, err := data.ReadNPZ(path, "")
		if err != nil {
			return nil, 0, nil, fmt.Errorf("part %d of %d: %w (compute it with ignn embed --shard %d/%d)", i, n, err, i, n)
		}
		m, rows, zs := a["meta"].Data, a["rows"].Data, a["z"].Data
		switch {
		case len(m) != 7:
			return nil, 0, nil, fmt.Errorf("%s: no meta array of 7 values: not a part written by ignn embed --shard", path)
		case int(m[0]) != len(ids) || m[4] != lo || m[5] != hi:
			return nil, 0, nil, fmt.Errorf("%s: a part of another graph (%d nodes; this data has %d, or other node ids)", path, int(m[0]), len(ids))
		case int(m[2]) != i || int(m[3]) != n:
			return nil, 0, nil, fmt.Errorf("%s: holds part %d of %d", path, int(m[2]), int(m[3]))
		case slots >= 0 && m[6] != slots:
			return nil, 0, nil, fmt.Errorf("%s: computed with --slots %d, the parts before it with %d: every part must use the same", path, int(m[6]), int(slots))
		}
		slots = m[6]
		if z == nil {
			d = int(m[1])
			z = make([]float64, len(ids)*d)
		}
		if int(m[1]) != d || len(zs) != len(rows)*d {
			return nil, 0, nil, fmt.Errorf("%s: width %d and %d values for %d rows (the parts before it: width %d)", path, int(m[1]), len(zs), len(rows), d)
		}
		for k, r := range rows {
			v := int(r)
			if v < 0 || v >= len(ids) || seen[v] {
				return nil, 0, nil, fmt.Errorf("%s: row %d out of range or already in an earlier part", path, v)
			}
			seen[v] = true
			copy(z[v*d:(v+1)*d], zs[k*d:(k+1)*d])
		}
	}
	for v, ok := range seen {
		if !ok {
			return nil, 0, nil, fmt.Errorf("the %d parts of %s hold no embedding of row %d: recompute them all with the same --shards and --slots", n, out, v)
		}
	}
	return z, d, ids, nil
}

// embedScript is OUT.sbatch: an array job of one task per part, each
// running this ignn binary's embed with --shard auto.
func embedScript(bin, ckpt, out, prepared string, shards, slots int, memMB int64, extra []string) string {
	exec := fmt.Sprintf("%q embed --checkpoint %q --out %q --shard auto --slots %d", bin, ckpt, out, slots)
	if prepared != "" {
		exec += fmt.Sprintf(" --prepared %q", prepared)
	}
	return slurm.ArrayJob{Command: "embed", Does: "compute the parts of " + out, Name: "ignn-embed", Tasks: shards, CPUs: 2, MemMB: memMB,
		Logs: strings.TrimSuffix(out, filepath.Ext(out)) + ".logs", Extra: extra, Exec: exec}.Script()
}

// submitEmbed writes OUT.sbatch and submits it; with --wait it gathers the
// parts when the job ends.
func submitEmbed(c *cli.Context, stdout io.Writer, ds *data.Dataset, ck *run.Checkpoint) error {
	shards, bin, err := arrayTasks(c)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(c.String("out"))
	if err != nil {
		return err
	}
	ckpt, err := filepath.Abs(c.String("checkpoint"))
	if err != nil {
		return err
	}
	prepared := ck.Config.Stages
	if prepared != "" {
		if prepared, err = filepath.Abs(prepared); err != nil {
			return err
		}
	}
	cfg, err := ck.Config.Resolve(ds)
	if err != nil {
		return err
	}
	memMB := (run.PlanMemory(cfg, run.UseFeatures(ds, cfg)).Total + 256<<20) >> 20
	base := strings.TrimSuffix(out, filepath.Ext(out))
	if err := os.MkdirAll(base+".logs", 0o755); err != nil {
		return err
	}
	script := base + ".sbatch"
	if err := data.WriteFileAtomic(script, []byte(embedScript(bin, ckpt, out, prepared, shards, c.Int("slots"), memMB, c.StringSlice("slurm-arg")))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d array tasks, 2 CPUs and %d MB each)\n", script, shards, memMB)
	id, err := slurm.Submit(script, c.Bool("wait"))
	if err != nil {
		return err
	}
	gather := fmt.Sprintf("ignn embed --checkpoint %s --out %s --gather --shards %d", ckpt, out, shards)
	if !c.Bool("wait") {
		fmt.Fprintf(stdout, "submitted job %s; logs in %s.logs; when it ends: %s\n", id, base, gather)
		return nil
	}
	fmt.Fprintf(stdout, "job %s ended; gathering its %d parts\n", id, shards)
	z, d, ids, err := gatherShards(out, ds, shards)
	if err != nil {
		return fmt.Errorf("%w (logs in %s.logs)", err, base)
	}
	return writeEmbeddings(stdout, ds, ids, d, z, out, "")
}
