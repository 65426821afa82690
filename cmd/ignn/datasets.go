package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
)

func datasetsCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name: "datasets", Usage: "describe the built-in datasets: graphs, nodes, edges, feature dim, classes, diameters",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			dataDirFlag(),
		},
		Action: func(c *cli.Context) error {
			w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "dataset\tgraphs\tnodes\tedges\tfeature dim\tclasses\tdiameter\tgraph sizes")
			var failed []string
			for _, name := range run.BuiltinDatasets {
				cfg := run.Default()
				cfg.Dataset, cfg.DataDir = name, c.String("data-dir")
				ds, err := run.LoadDataset(cfg)
				if err != nil {
					fmt.Fprintf(w, "%s\t%s\n", name, err)
					failed = append(failed, name)
					continue
				}
				lo, hi := -1, 0
				sizes := ""
				for i, g := range ds.Graphs {
					d, err := data.HopDistances(g.N, g.Edges, 0, 0)
					if err != nil {
						return err
					}
					diam := 0
					for _, v := range d.D {
						if v != data.Unreachable && int(v) > diam {
							diam = int(v)
						}
					}
					if lo < 0 || diam < lo {
						lo = diam
					}
					hi = max(hi, diam)
					if i < 8 {
						if i > 0 {
							sizes += "/"
						}
						sizes += fmt.Sprint(g.N)
					} else if i == 8 {
						sizes += "/…"
					}
				}
				diam := fmt.Sprint(lo)
				if hi != lo {
					diam = fmt.Sprintf("%d–%d", lo, hi)
				}
				fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", name, len(ds.Graphs), ds.NumNodes(), ds.NumEdges(), ds.FeatureDim(), ds.NumClasses(), diam, sizes)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if len(failed) > 0 {
				return fmt.Errorf("could not load %s (see above; `ignn data fetch NAME` downloads the raw files)", strings.Join(failed, ", "))
			}
			return nil
		},
	}
}

func dataCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name: "data", Usage: "manage raw dataset files",
		Subcommands: []*cli.Command{{
			Name: "fetch", Usage: "download email or protein from SNAP / TU Dortmund and verify their SHA-256",
			ArgsUsage:    "email|protein",
			OnUsageError: onUsageError,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "dir", Usage: "destination (default: the user cache directory, which ignn searches)"},
				&cli.StringFlag{Name: "mirror", Usage: "fetch from this base URL instead of the public sources"},
			},
			Action: func(c *cli.Context) error {
				if c.Args().Len() != 1 {
					return usagef("data fetch needs one dataset: email or protein")
				}
				dir := c.String("dir")
				if dir == "" {
					var err error
					if dir, err = data.CacheDir(); err != nil {
						return err
					}
				}
				if err := data.Fetch(c.Context, c.Args().First(), dir, data.FetchOptions{Mirror: c.String("mirror"), Log: stderr}); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s is in %s\n", c.Args().First(), dir)
				return nil
			},
		}, {
			Name:         "convert",
			Usage:        "parse an edge list once into a folder later runs memory-map (--dataset FOLDER): edges.npy (NumPy '<u8', E × 2 node ids), names.tsv, graph.json",
			ArgsUsage:    "EDGES",
			OnUsageError: onUsageError,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Usage: "the folder to write (default: EDGES.ignn)"},
				&cli.StringFlag{Name: "header", Value: data.HeaderAuto, Usage: "a header line — auto, yes or no (as train's --header)"},
				&cli.StringFlag{Name: "columns", Usage: "the source and target columns (as train's --columns)"},
			},
			Action: func(c *cli.Context) error {
				if c.Args().Len() != 1 {
					return usagef("data convert needs one edge list")
				}
				src := c.Args().First()
				out := cmp.Or(c.String("out"), src+".ignn")
				t0 := time.Now()
				header := c.String("header")
				if header == data.HeaderAuto {
					header = "" // as configFrom: auto is the implicit default
				}
				el, err := data.ParseEdgeListFile(src, data.EdgeListOptions{Header: header, Columns: c.String("columns")})
				if err != nil {
					return err
				}
				if err := data.WriteEdgeBin(out, src, el); err != nil {
					return err
				}
				for _, n := range el.Notes { // what the parse skipped or ignored: also kept in graph.json
					fmt.Fprintf(stderr, "note: %s\n", n)
				}
				fmt.Fprintf(stdout, "wrote %s: %d edges (%d named nodes) in %.1f s; use --dataset %s\n", out, len(el.Edges), len(el.Names), time.Since(t0).Seconds(), out)
				return nil
			},
		}},
	}
}
