package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
)

// neighborJSON is one result line of `ignn neighbors --json`.
type neighborJSON struct {
	Query     uint64          `json:"query"`
	QueryName string          `json:"query_name,omitempty"` // for graphs with named nodes
	Neighbors []neighborEntry `json:"neighbors"`
}

type neighborEntry struct {
	Node   uint64  `json:"node"`
	Name   string  `json:"name,omitempty"` // for graphs with named nodes
	Cosine float64 `json:"cosine"`
	Hops   *int    `json:"hops"` // null when unreachable
}

func neighborsCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name: "neighbors", Usage: "the k nearest nodes of query nodes by cosine, each with its true hop distance",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Required: true, Usage: "directory written by ignn train --save"},
			&cli.StringSliceFlag{Name: "node", Usage: "query node: its id or name (repeat, or comma-separate, for several)"},
			&cli.StringFlag{Name: "nodes", Usage: "file of query nodes (ids or names), one per line"},
			&cli.IntFlag{Name: "k", Value: 10, Usage: "neighbours per query"},
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per query"},
			dataDirFlag(),
		},
		Action: func(c *cli.Context) error {
			k := c.Int("k")
			if k < 1 {
				return usagef("--k must be ≥ 1, got %d", k)
			}
			ids, tokens, err := queryIDs(c)
			if err != nil {
				return err
			}
			ck, err := run.LoadCheckpoint(c.String("checkpoint"))
			if err != nil {
				return err
			}
			cfg := ck.Config
			if d := c.String("data-dir"); d != "" {
				cfg.DataDir = d
			}
			t0 := time.Now()
			ds, err := run.LoadDataset(cfg)
			if err != nil {
				return err
			}
			z, d, rowIDs, err := run.Embed(ck, ds)
			if err != nil {
				return err
			}
			t1 := time.Now()
			u := ds.Union()
			rowOf := make(map[uint64]int, len(rowIDs))
			graphOf := make([]int, len(rowIDs))
			for g := range u.Graphs {
				for i := 0; i < u.Graphs[g].N; i++ {
					graphOf[u.Global(g, i)] = g
				}
			}
			for r, id := range rowIDs {
				rowOf[id] = r
			}
			names := data.NamesOf(ds)
			var rows []int
			for qi, id := range ids {
				r, ok := rowOf[id]
				if !ok {
					msg := fmt.Sprintf("node %s is not in %s", tokens[qi], cfg.Dataset)
					if near := names.Near(tokens[qi], 3); len(near) > 0 {
						msg += "; did you mean " + strings.Join(near, ", ") + "?"
					}
					return usagef("%s", msg)
				}
				rows = append(rows, r)
			}
			// Neighbours come from the query's own graph.
			res := eval.NearestByCosine(z, d, rows, k, func(q, r int) bool { return graphOf[q] == graphOf[r] })
			t2 := time.Now()
			hops := neighborHops(u, graphOf, rows, res)
			fmt.Fprintf(stderr, "embedded %d nodes in %.1f s; %d queries: search %.2f s, hop distances %.2f s\n",
				len(rowIDs), t1.Sub(t0).Seconds(), len(rows), t2.Sub(t1).Seconds(), time.Since(t2).Seconds())
			for qi, q := range rows {
				out := neighborJSON{Query: rowIDs[q], QueryName: names[rowIDs[q]]}
				for ni, nb := range res[qi] {
					e := neighborEntry{Node: rowIDs[nb.Row], Name: names[rowIDs[nb.Row]], Cosine: nb.Cosine}
					if h := hops[qi][ni]; h != data.Unreachable {
						v := int(h)
						e.Hops = &v
					}
					out.Neighbors = append(out.Neighbors, e)
				}
				if c.Bool("json") {
					if err := json.NewEncoder(stdout).Encode(out); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(stdout, "node %s: %d nearest by cosine (hops = true hop distance in the full graph)\n", names.Of(out.Query), len(out.Neighbors))
				for i, e := range out.Neighbors {
					h := "unreachable"
					if e.Hops != nil {
						h = strconv.Itoa(*e.Hops)
					}
					fmt.Fprintf(stdout, "  %2d. node %-10s cosine %.4f  hops %s\n", i+1, names.Of(e.Node), e.Cosine, h)
				}
			}
			return nil
		},
	}
}

// neighborHops measures each result's hop distance from its query on the
// full graph (all edges), one early-stopping BFS per query, two at a time.
func neighborHops(u *data.Union, graphOf, rows []int, res [][]eval.Neighbor) [][]uint16 {
	adjs := make([]*data.Adj, len(u.Graphs))
	for g, gr := range u.Graphs {
		adjs[g] = data.NewAdj(gr.N, gr.Edges)
	}
	out := make([][]uint16, len(rows))
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var queue []int32
			bufs := map[int][]uint16{}
			for qi := w; qi < len(rows); qi += 2 {
				g := graphOf[rows[qi]]
				if bufs[g] == nil {
					bufs[g] = make([]uint16, u.Graphs[g].N)
				}
				var targets []int
				for _, nb := range res[qi] {
					targets = append(targets, nb.Row-u.Offsets[g])
				}
				out[qi], queue = adjs[g].DistancesTo(rows[qi]-u.Offsets[g], targets, bufs[g], queue)
			}
		}()
	}
	wg.Wait()
	return out
}

// queryIDs collects --node values and the lines of --nodes: their ids and
// the tokens as given.
func queryIDs(c *cli.Context) ([]uint64, []string, error) {
	var raw []string
	for _, v := range c.StringSlice("node") {
		raw = append(raw, strings.Split(v, ",")...)
	}
	if f := c.String("nodes"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if s := strings.TrimSpace(strings.SplitN(line, "#", 2)[0]); s != "" {
				if _, err := data.ParseNode(s); err != nil {
					return nil, nil, fmt.Errorf("%s:%d: %v", f, i+1, err)
				}
				raw = append(raw, s)
			}
		}
	}
	var ids []uint64
	var tokens []string
	for _, s := range raw {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		v, err := data.ParseNode(s)
		if err != nil {
			return nil, nil, usagef("--node: %v", err)
		}
		ids, tokens = append(ids, v), append(tokens, s)
	}
	if len(ids) == 0 {
		return nil, nil, usagef("give query nodes with --node ID (repeatable) or --nodes FILE")
	}
	return ids, tokens, nil
}
