package run

import (
	"fmt"

	"github.com/ignn/ignn/cmd/internal/infer"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/models"
)

// Inductive is an embedding of a graph the model was not trained on.
type Inductive struct {
	Z        []float64
	D        int
	IDs      []uint64
	Union    *data.Union
	NewRows  []int // rows of nodes absent from the training data
	Training int   // nodes of the training data
}

// EmbedInductive embeds ds — a changed or grown version of the training
// graph, or another graph — with the checkpoint's trained parameters.
// Nodes keep their ids, and so their hash vectors; new nodes get theirs
// (and their attributes, if the data has them). Identity inputs are
// refused: a one-hot column exists only for nodes seen in training; so are
// graph encodings (Config.Position lap/rw/landmark), which depend on the
// whole graph.
func EmbedInductive(ck *Checkpoint, train, ds *data.Dataset) (*Inductive, error) {
	if pos := ck.Config.Position; !pos.IsHash() {
		return nil, fmt.Errorf("embed: the model was trained with the positional input %s, which is computed from the whole training graph "+
			"(eigenvectors, walks or landmark distances all change when the graph grows); only the hash input (the default) gives a new node its input "+
			"without recomputing everyone's — embed grown graphs with a model trained with --position hash", pos)
	}
	if ds.Identity || train.Identity {
		return nil, fmt.Errorf("embed: the model was trained on one-hot identity inputs, which have no column for nodes it has not seen; " +
			"embed other graphs with a model trained on hashed (variant hash or both, --features constant) or attribute inputs")
	}
	built, err := restored(ck, ds, true)
	if err != nil {
		return nil, err
	}
	defer built.Close()
	p := built.p
	z, d, err := built.Embeddings()
	if err != nil {
		return nil, err
	}
	seen := map[uint64]bool{}
	for _, g := range train.Graphs {
		for i := range g.N {
			seen[g.ID(i)] = true
		}
	}
	in := &Inductive{Z: z, D: d, IDs: p.Union.IDs(), Union: p.Union, Training: len(seen)}
	for r, id := range in.IDs {
		if !seen[id] {
			in.NewRows = append(in.NewRows, r)
		}
	}
	return in, nil
}

// NewNodeScores are the faithfulness of the new nodes' embeddings: τ-b
// between hop distance and cosine over every pair (new node, other node of
// its graph) at finite distance, and precision@10 with the new nodes as
// queries (eval.FaithfulnessOf), on the full graph.
type NewNodeScores struct {
	Queries       int
	Tau           float64
	PrecisionAt10 float64
}

// ScoreNew scores up to maxQ new nodes (evenly spaced).
func (in *Inductive) ScoreNew(maxQ int) NewNodeScores {
	u := in.Union
	adjs := make([]*data.Adj, len(u.Graphs))
	for g, gr := range u.Graphs {
		adjs[g] = data.NewAdj(gr.N, gr.Edges)
	}
	step := max(1, (len(in.NewRows)+maxQ-1)/maxQ)
	var qs []eval.Query
	var dist []uint16
	var cos []float64
	for k := 0; k < len(in.NewRows); k += step {
		r := in.NewRows[k]
		g, i := u.Local(r)
		row := make([]uint16, u.Graphs[g].N)
		adjs[g].BFS(i, 0, row, nil)
		qs = append(qs, eval.Query{Graph: g, Node: i, Row: row})
		for j, h := range row {
			if j == i || h == data.Unreachable {
				continue
			}
			var c float64
			a, b := in.Z[r*in.D:(r+1)*in.D], in.Z[u.Global(g, j)*in.D:(u.Global(g, j)+1)*in.D]
			for x := range a {
				c += a[x] * b[x]
			}
			dist, cos = append(dist, h), append(cos, -c)
		}
	}
	f := eval.FaithfulnessOf(in.Z, in.D, u, qs, 10)
	return NewNodeScores{Queries: len(qs), Tau: eval.KendallTauBInts(dist, cos), PrecisionAt10: f.PrecisionAtK}
}

// Embed rebuilds the checkpointed model on ds (which must be the data it
// was trained on) and returns the L2-normalised embeddings, their width and
// the node ids in row order.
func Embed(ck *Checkpoint, ds *data.Dataset) ([]float64, int, []uint64, error) {
	built, err := restored(ck, ds, false)
	if err != nil {
		return nil, 0, nil, err
	}
	defer built.Close()
	z, d, err := built.Embeddings()
	if err != nil {
		return nil, 0, nil, err
	}
	return z, d, built.p.Union.IDs(), nil
}

// EmbedShard is shard i of n of Embed through chunked inference
// (Built.EmbeddingShard on slots node slots): the rows of its nodes, their
// embeddings (float32, width d), and every row's node id (the same for
// every shard).
func EmbedShard(ck *Checkpoint, ds *data.Dataset, i, n, slots int) (rows []int, z []float32, d int, ids []uint64, err error) {
	built, err := restored(ck, ds, false)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	defer built.Close()
	rows, z, d, err = built.EmbeddingShard(i, n, slots)
	return rows, z, d, built.p.Union.IDs(), err
}

// restored rebuilds the checkpointed model on ds, its trained state
// restored: ds is the training data, or with inductive other data (a
// grown graph: the trained hash width is kept, and the parameters must
// fit it).
func restored(ck *Checkpoint, ds *data.Dataset, inductive bool) (*Built, error) {
	cfg, err := ck.Config.Resolve(ds)
	if err != nil {
		return nil, err
	}
	if inductive {
		cfg.HashDim = ck.Config.HashDim // keep the trained width, whatever the new data's rule says
	} else {
		ds = UseFeatures(ds, cfg)
	}
	p, err := Prepare(ds, cfg)
	if err != nil {
		return nil, err
	}
	built, err := Build(p, cfg)
	if err != nil {
		return nil, err
	}
	if err := built.restoreOn(ck, inductive); err != nil {
		built.Close()
		if inductive {
			return nil, fmt.Errorf("embed: the new graph does not fit the trained model: %w", err)
		}
		return nil, err
	}
	return built, nil
}

// EmbeddingShard is shard i of n of the embeddings through chunked
// inference (infer.Inferer.Shard): the run's own inferer (mini-batch runs from
// ChunkedInferenceNodes on) when slots is 0 or its slots, otherwise one on
// slots node slots (0: the training batch's), the same for every shard, so
// that the shards of one slots setting together are `--shard 0/1` of it,
// bit for bit. Whole-graph runs have no node slots to chunk into: an
// error.
func (c *Built) EmbeddingShard(i, n, slots int) ([]int, []float32, int, error) {
	if n < 1 || i < 0 || i >= n {
		return nil, nil, 0, fmt.Errorf("embedding shard %d of %d: want 0 ≤ i < n", i, n)
	}
	c.unflip()
	f := c.infer
	if f == nil || (slots > 0 && slots != f.Slots()) {
		if c.batch == nil {
			return nil, nil, 0, fmt.Errorf("sharded embedding runs chunked inference over a mini-batch model's node slots; this model was trained on the whole graph at once (no --batch-size): embed it in one process")
		}
		if slots <= 0 {
			slots = c.batch.Slots.Sub.Slots
		}
		entry, err := models.Lookup(c.cfg.Model)
		if err != nil {
			return nil, nil, 0, err
		}
		if f, err = infer.New(infer.Input{Graph: c.p.Input, Model: entry.New(c.cfg.ModelConfig), Params: c.ps, Layers: c.cfg.ModelConfig.Layers, Slots: slots}); err != nil {
			return nil, nil, 0, err
		}
		defer f.Close()
	}
	return f.Shard(c.evalRN.Rand, i, n)
}
