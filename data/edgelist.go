package data

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// EdgeList is a user's graph before indexing: edges between arbitrary
// non-negative integer ids.
type EdgeList struct {
	Edges [][2]uint64
	Names Names    // the names of named nodes (see NameID); empty when every id is an integer
	Notes []string // what the reader skipped or ignored (a header, extra columns, values)
}

// ParseEdgeList reads an edge list with the default options
// (ParseEdgeListWith): node ids in the first two columns, a header line
// detected. name labels errors ("edges.txt:12: …").
func ParseEdgeList(name string, r io.Reader) (*EdgeList, error) {
	return ParseEdgeListWith(name, r, EdgeListOptions{})
}

// ParseLabels reads "node label" lines (integer label ≥ 0; the node an
// integer id or a name).
func ParseLabels(name string, r io.Reader) (map[uint64]int, error) {
	return parseLabels(name, r, Names{})
}

func parseLabels(name string, r io.Reader, names Names) (map[uint64]int, error) {
	out := map[uint64]int{}
	rows := 0
	err := scanRows(name, r, func(line int, f []string) error {
		if rows++; rows == 1 && !anyNumber(f) {
			return nil // a header line ("node,label"): the label column always holds numbers
		}
		if len(f) != 2 {
			return fmt.Errorf("want \"node label\", found %d fields", len(f))
		}
		id, err := parseNode(f[0], names)
		if err != nil {
			return err
		}
		l, err := parseID(f[1], "label")
		if err != nil {
			return err
		}
		if _, dup := out[id]; dup {
			return fmt.Errorf("node %s labelled twice", names.Of(id))
		}
		out[id] = int(l)
		return nil
	})
	return out, err
}

// ParseFeatures reads "node v1 … vF" lines (the node an integer id or a
// name); every row must have the width of the first.
func ParseFeatures(name string, r io.Reader) (map[uint64][]float64, int, error) {
	return parseFeatures(name, r, Names{})
}

func parseFeatures(name string, r io.Reader, names Names) (map[uint64][]float64, int, error) {
	out := map[uint64][]float64{}
	width, rows := -1, 0
	err := scanRows(name, r, func(line int, f []string) error {
		if rows++; rows == 1 && !anyNumber(f) {
			return nil // a header line: feature values are numbers
		}
		if len(f) < 2 {
			return fmt.Errorf("want \"node v1 … vF\", found %d field(s)", len(f))
		}
		id, err := parseNode(f[0], names)
		if err != nil {
			return err
		}
		if width < 0 {
			width = len(f) - 1
		} else if len(f)-1 != width {
			return fmt.Errorf("%d feature values, earlier rows have %d", len(f)-1, width)
		}
		if _, dup := out[id]; dup {
			return fmt.Errorf("node %s has two feature rows", names.Of(id))
		}
		row := make([]float64, width)
		for k := range row {
			if row[k], err = parseFloat(f[k+1], k+2); err != nil {
				return err
			}
		}
		out[id] = row
		return nil
	})
	return out, width, err
}

// The --features keywords for users' graphs.
const (
	// FeaturesIdentity gives every node its own one-hot input (a sparse row
	// lookup, as PyG users get from an identity x): the default.
	FeaturesIdentity = "identity"
	// FeaturesConstant gives every node the input 1 (P-GNN's Email choice).
	FeaturesConstant = "constant"
)

func identityPerm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// UserFiles names a user's graph files; only Edges is required.
type UserFiles struct {
	Edges, Labels, Features, GraphIndex string
	// Header and Columns say how to read the edge list (EdgeListOptions).
	Header, Columns string
}

// LoadUser reads a user's graph: the edge list, optional labels and
// features (keyed by node id), and an optional graph index ("node graph"
// lines) splitting the nodes into several graphs. Nodes are the ids seen in
// any file, indexed in ascending id order; the ids are the hash keys. Every
// node needs a label (features) when a labels (features) file is given, and
// an edge may not join two graphs. Featureless graphs get a constant 1
// feature (as P-GNN does for Email).
func LoadUser(files UserFiles) (*Dataset, error) {
	el, err := readWith(files.Edges, func(name string, r io.Reader) (*EdgeList, error) {
		return ParseEdgeListWith(name, r, EdgeListOptions{Header: files.Header, Columns: files.Columns})
	})
	if err != nil {
		return nil, err
	}
	ids := map[uint64]bool{}
	for _, e := range el.Edges {
		ids[e[0]], ids[e[1]] = true, true
	}
	notes := append([]string(nil), el.Notes...)
	names := el.Names
	var labels map[uint64]int
	if files.Labels != "" {
		if labels, err = readWith(files.Labels, func(n string, r io.Reader) (map[uint64]int, error) { return parseLabels(n, r, names) }); err != nil {
			return nil, err
		}
		var only []uint64
		for id := range labels {
			if !ids[id] {
				only = append(only, id)
				ids[id] = true
			}
		}
		if len(only) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d labelled nodes have no edge (%s); kept as isolated nodes", files.Labels, len(only), someIDs(only, names)))
		}
	}
	var feats map[uint64][]float64
	width := 0
	identity := files.Features == "" || files.Features == FeaturesIdentity
	if files.Features != "" && files.Features != FeaturesIdentity && files.Features != FeaturesConstant {
		fh, closeIn, err := openInput(files.Features)
		if err != nil {
			return nil, err
		}
		feats, width, err = parseFeatures(files.Features, fh, names)
		err = preferStreamError(fh, err)
		closeIn()
		if err != nil {
			return nil, err
		}
	}
	if feats != nil {
		var extra []uint64
		for id := range feats {
			if !ids[id] {
				extra = append(extra, id)
			}
		}
		if len(extra) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d feature rows belong to nodes in neither the edge list nor the labels (%s); ignored", files.Features, len(extra), someIDs(extra, names)))
		}
	}
	graphOf := map[uint64]uint64{}
	if files.GraphIndex != "" {
		gi, err := readWith(files.GraphIndex, func(n string, r io.Reader) (map[uint64]int, error) { return parseLabels(n, r, names) })
		if err != nil {
			return nil, err
		}
		for id, g := range gi {
			graphOf[id] = uint64(g)
		}
		for id := range ids {
			if _, ok := gi[id]; !ok {
				return nil, fmt.Errorf("data: %s: node %s has no graph", files.GraphIndex, names.Of(id))
			}
		}
	}
	all := make([]uint64, 0, len(ids))
	for id := range ids {
		all = append(all, id)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	// Group nodes by graph.
	groups := map[uint64][]uint64{}
	var gids []uint64
	for _, id := range all {
		g := graphOf[id]
		if _, ok := groups[g]; !ok {
			gids = append(gids, g)
		}
		groups[g] = append(groups[g], id)
	}
	sort.Slice(gids, func(a, b int) bool { return gids[a] < gids[b] })
	local := map[uint64]int{}
	for _, g := range gids {
		for i, id := range groups[g] {
			local[id] = i
		}
	}
	edges := map[uint64][][2]int{}
	for _, e := range el.Edges {
		gu, gv := graphOf[e[0]], graphOf[e[1]]
		if gu != gv {
			return nil, fmt.Errorf("data: %s: edge %s–%s joins graphs %d and %d of %s (--graph-index): an edge must stay within one graph", files.Edges, names.Of(e[0]), names.Of(e[1]), gu, gv, files.GraphIndex)
		}
		edges[gu] = append(edges[gu], [2]int{local[e[0]], local[e[1]]})
	}
	ds := &Dataset{Name: files.Edges, Notes: notes, Identity: identity && feats == nil}
	for _, g := range gids {
		nodes := groups[g]
		gr, err := NewGraph(files.Edges+"#"+strconv.FormatUint(g, 10), len(nodes), edges[g])
		if err != nil {
			return nil, err
		}
		copy(gr.IDs, nodes)
		if len(names) > 0 {
			gr.Names = make([]string, len(nodes))
			for i, id := range nodes {
				gr.Names[i] = names.Of(id)
			}
		}
		if labels != nil {
			gr.Labels = make([]int, len(nodes))
			for i, id := range nodes {
				l, ok := labels[id]
				if !ok {
					return nil, fmt.Errorf("data: %s: node %s has no label", files.Labels, names.Of(id))
				}
				gr.Labels[i] = l
			}
		}
		if feats != nil {
			gr.XDim = width
			gr.X = make([]float64, 0, len(nodes)*width)
			for _, id := range nodes {
				row, ok := feats[id]
				if !ok {
					return nil, fmt.Errorf("data: %s: node %s has no feature row", files.Features, names.Of(id))
				}
				gr.X = append(gr.X, row...)
			}
		} else if identity {
			ds.Perm = append(ds.Perm, identityPerm(len(nodes)))
		} else {
			gr.XDim = 1
			gr.X = make([]float64, len(nodes))
			for i := range gr.X {
				gr.X[i] = 1
			}
		}
		ds.Graphs = append(ds.Graphs, gr)
	}
	return ds, nil
}

// someIDs lists up to five ids (names when they have one), ascending, for
// a message.
func someIDs(ids []uint64, names Names) string {
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	var parts []string
	for i, id := range ids {
		if i == 5 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, names.Of(id))
	}
	return "e.g. " + strings.Join(parts, ", ")
}

// readWith parses the file at path, decompressed by content (gzip, bzip2,
// zstd) and checked to be text.
func readWith[T any](path string, parse func(string, io.Reader) (T, error)) (T, error) {
	var zero T
	r, closeIn, err := openInput(path)
	if err != nil {
		return zero, err
	}
	defer closeIn()
	v, err := parse(path, r)
	return v, preferStreamError(r, err)
}
