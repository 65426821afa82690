package data

import (
	"cmp"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

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

// readEdges reads the edge list of files: a converted folder (ReadEdgeBin:
// memory-mapped, not parsed), or a text edge list.
func readEdges(files UserFiles) (*EdgeList, error) {
	if IsEdgeBin(files.Edges) {
		if files.Header != "" || files.Columns != "" {
			return nil, fmt.Errorf("data: %s is a converted edge list: --header and --columns applied when it was converted", files.Edges)
		}
		return ReadEdgeBin(files.Edges)
	}
	return ParseEdgeListFile(files.Edges, EdgeListOptions{Header: files.Header, Columns: files.Columns})
}

// ParseEdgeListFile reads the edge list at path (compressed or not) with
// options o (ParseEdgeListWith).
func ParseEdgeListFile(path string, o EdgeListOptions) (*EdgeList, error) {
	return readWith(path, func(name string, r io.Reader) (*EdgeList, error) { return ParseEdgeListWith(name, r, o) })
}

// LoadUser reads a user's graph: the edge list, optional labels and
// features (keyed by node id), and an optional graph index ("node graph"
// lines) splitting the nodes into several graphs. Nodes are the ids seen in
// any file, indexed in ascending id order; the ids are the hash keys. Every
// node needs a label (features) when a labels (features) file is given, and
// an edge may not join two graphs. Featureless graphs get the one-hot
// identity (FeaturesIdentity), or a constant 1 feature with
// FeaturesConstant (as P-GNN does for Email).
func LoadUser(files UserFiles) (*Dataset, error) {
	el, err := readEdges(files)
	if err != nil {
		return nil, err
	}
	defer el.Release() // a converted list's mapping: the graphs below copy what they keep
	ids := map[uint64]bool{}
	for _, e := range el.Edges {
		ids[e[0]], ids[e[1]] = true, true
	}
	notes := append([]string(nil), el.Notes...)
	names := el.Names
	var labels map[uint64]int32
	if files.Labels != "" {
		if labels, err = readWith(files.Labels, func(n string, r io.Reader) (map[uint64]int32, error) { return parseLabels(n, r, names, "label") }); err != nil {
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
	wide := map[uint64]int{} // the lines of feature rows beyond float32's range
	width := 0
	identity := files.Features == "" || files.Features == FeaturesIdentity
	if files.Features != "" && files.Features != FeaturesIdentity && files.Features != FeaturesConstant {
		fh, closeIn, err := openInput(files.Features)
		if err != nil {
			return nil, err
		}
		feats, width, err = parseFeatures(files.Features, fh, names, wide)
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
		gi, err := readWith(files.GraphIndex, func(n string, r io.Reader) (map[uint64]int32, error) { return parseLabels(n, r, names, "graph index") })
		if err != nil {
			return nil, err
		}
		for id, g := range gi {
			graphOf[id] = uint64(g)
		}
		for id := range ids {
			if _, ok := gi[id]; !ok {
				return nil, fmt.Errorf("data: %s: node %s has no graph", files.GraphIndex, names.short(id))
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
	edges := map[uint64][][2]int32{}
	for _, e := range el.Edges {
		gu, gv := graphOf[e[0]], graphOf[e[1]]
		if gu != gv {
			return nil, fmt.Errorf("data: %s: edge %s–%s joins graphs %d and %d of %s (--graph-index): an edge must stay within one graph", files.Edges, names.short(e[0]), names.short(e[1]), gu, gv, files.GraphIndex)
		}
		edges[gu] = append(edges[gu], [2]int32{int32(local[e[0]]), int32(local[e[1]])})
	}
	ds := &Dataset{Name: cmp.Or(el.Source, files.Edges), Notes: notes, Identity: identity && feats == nil}
	for _, g := range gids {
		nodes := groups[g]
		gr, err := NewGraph(ds.Name+"#"+strconv.FormatUint(g, 10), len(nodes), edges[g])
		if err != nil {
			return nil, err
		}
		gr.IDs = nodes
		if len(names) > 0 {
			gr.Names = make([]string, len(nodes))
			for i, id := range nodes {
				gr.Names[i] = names.Of(id)
			}
		}
		if labels != nil {
			gr.Labels = make([]int32, len(nodes))
			for i, id := range nodes {
				l, ok := labels[id]
				if !ok {
					return nil, fmt.Errorf("data: %s: node %s has no label", files.Labels, names.short(id))
				}
				gr.Labels[i] = l
			}
		}
		if feats != nil {
			gr.XDim = width
			gr.X = make([]float64, 0, len(nodes)*width)
			for i, id := range nodes {
				row, ok := feats[id]
				if !ok {
					return nil, fmt.Errorf("data: %s: node %s has no feature row", files.Features, names.short(id))
				}
				gr.X = append(gr.X, row...)
				if line, ok := wide[id]; ok {
					if gr.xLines == nil {
						gr.xFile, gr.xLines = files.Features, map[int]int{}
					}
					gr.xLines[i] = line
				}
			}
		} else if identity {
			ds.Perm = append(ds.Perm, identityPerm(len(nodes)))
		} else {
			gr.SetConstantFeature()
		}
		ds.Graphs = append(ds.Graphs, gr)
	}
	ds.Cleaned = cleanedLines(el, ds.Graphs)
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
		parts = append(parts, names.short(id))
	}
	return "e.g. " + strings.Join(parts, ", ")
}

// cleanedLines names the first lines of el that hold a self-loop and a
// repeated edge (in either orientation), when graphs dropped any: "self-loops
// at lines 3, 9, 12; repeated edges at lines 5, 6, 8". Repeats are looked
// for only in lists of up to 2²⁴ edges (the search keeps a set of edges).
func cleanedLines(el *EdgeList, graphs []*Graph) string {
	loops, dups := 0, 0
	for _, g := range graphs {
		loops, dups = loops+g.Removed.SelfLoops, dups+g.Removed.Duplicates
	}
	const few = 3
	var parts []string
	lines := func(what string, idx []int) {
		if len(idx) == 0 || el.Line(idx[0]) == 0 {
			return
		}
		s := make([]string, len(idx))
		for k, i := range idx {
			s[k] = strconv.Itoa(el.Line(i))
		}
		parts = append(parts, fmt.Sprintf("%s at line%s %s", what, plural(len(idx)), strings.Join(s, ", ")))
	}
	if loops > 0 {
		var idx []int
		for i, e := range el.Edges {
			if e[0] == e[1] {
				if idx = append(idx, i); len(idx) == few {
					break
				}
			}
		}
		lines("self-loops", idx)
	}
	if dups > 0 && len(el.Edges) <= 1<<24 {
		var idx []int
		seen := map[[2]uint64]bool{}
		for i, e := range el.Edges {
			if e[0] > e[1] {
				e[0], e[1] = e[1], e[0]
			}
			if e[0] == e[1] {
				continue
			}
			if seen[e] {
				if idx = append(idx, i); len(idx) == few {
					break
				}
			}
			seen[e] = true
		}
		lines("repeated edges", idx)
	}
	return strings.Join(parts, "; ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
