package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Graph is one undirected simple graph with nodes 0..N-1.
type Graph struct {
	Name   string
	N      int
	Edges  [][2]int32 // each undirected edge once, u < v, sorted, no self-loops (8 B an edge)
	Labels []int32    // node labels, class numbers 0 … 2³¹−1 (nil when the dataset has none)
	// IDs are the stable node identifiers (hash keys), distinct within a
	// dataset; nil when node i's id is i (NewGraph's graphs until a loader
	// sets them: a generated graph's 10⁸ ids would be 800 MB). Read them
	// with ID or NodeIDs.
	IDs   []uint64
	Names []string // the nodes' names when any node was named (see NameID), else nil
	// X holds the node features, row-major N×XDim (nil when none), or,
	// when XShared, the one row of XDim values every node has (a constant
	// feature: one row instead of N). Read a node's row with XRow.
	X       []float64
	XDim    int
	XShared bool
	Removed struct{ SelfLoops, Duplicates int }
	// xFile and xLines say where LoadUser read the feature rows that hold
	// a value beyond float32's range: the features file and, by node, the
	// row's line (for CheckFloat32's message; nil when every value fits).
	xFile  string
	xLines map[int]int
}

// beyondFloat32 reports whether v is beyond float32's range (±3.4e38).
func beyondFloat32(v float64) bool { return math.Abs(v) > math.MaxFloat32 }

// CheckFloat32 returns nil when every feature value fits float32's range
// (±3.4e38), else an error naming the first that does not: its features
// file, line and column when LoadUser read it from one ("f.txt:7: column
// 2: 1e+39 is beyond float32's range (±3.4e38)"), else the graph and the
// node. A run computing in float32 must refuse such values.
func (g *Graph) CheckFloat32() error {
	for k, v := range g.X { // a shared row is node 0's
		if !beyondFloat32(v) {
			continue
		}
		i, c := k/g.XDim, k%g.XDim
		if line, ok := g.xLines[i]; ok {
			return &LineError{g.xFile, line, fmt.Sprintf("column %d: %g is beyond float32's range (±3.4e38)", c+2, v)}
		}
		node := strconv.FormatUint(g.ID(i), 10)
		if g.Names != nil {
			node = shortToken(g.Names[i])
		}
		return fmt.Errorf("graph %s: node %s attribute %d is %g, beyond float32's range (±3.4e38)", g.Name, node, c+1, v)
	}
	return nil
}

// ID is node i's identifier: IDs[i], or i when IDs is nil.
func (g *Graph) ID(i int) uint64 {
	if g.IDs == nil {
		return uint64(i)
	}
	return g.IDs[i]
}

// NodeIDs returns every node's identifier in node order: IDs, or a new
// slice 0 … N−1 when IDs is nil.
func (g *Graph) NodeIDs() []uint64 {
	if g.IDs != nil {
		return g.IDs
	}
	ids := make([]uint64, g.N)
	for i := range ids {
		ids[i] = uint64(i)
	}
	return ids
}

// XRow is node i's feature row (XDim values; empty when the graph has
// none), shared with g: do not modify it.
func (g *Graph) XRow(i int) []float64 {
	if g.X == nil {
		return nil
	}
	if g.XShared {
		return g.X[:g.XDim:g.XDim]
	}
	return g.X[i*g.XDim : (i+1)*g.XDim : (i+1)*g.XDim]
}

// SetConstantFeature gives every node the one feature 1, as a shared row.
func (g *Graph) SetConstantFeature() { g.X, g.XDim, g.XShared = []float64{1}, 1, true }

// Dataset is a named list of graphs sharing a feature scheme.
type Dataset struct {
	Name   string
	Graphs []*Graph
	// Identity marks datasets whose input is a one-hot identity with
	// permuted columns (Communities); X is then nil.
	Identity bool
	// Perm is the column permutation of the identity features per graph.
	Perm [][]int
	// Notes are what loading decided that a user should hear about (nodes
	// only in a side file, ignored rows, skipped graphs).
	Notes []string
	// Cleaned names where a user's edge list held the self-loops and
	// repeated edges its graphs dropped (Graph.Removed): the first few
	// lines of each ("" when none, or when the lines are not known).
	Cleaned string
}

// WithConstantFeatures is d with a featureless dataset's one-hot identity
// replaced by a constant 1 input per node (FeaturesConstant): no N-wide
// input, so no N × hidden input weights. The graphs are shallow copies
// sharing d's edges; d is not modified, and a dataset with attributes is
// returned as it is.
func (d *Dataset) WithConstantFeatures() *Dataset {
	if !d.Identity {
		return d
	}
	c := *d
	c.Identity, c.Perm, c.Graphs = false, nil, make([]*Graph, len(d.Graphs))
	for i, g := range d.Graphs {
		cg := *g
		cg.SetConstantFeature()
		c.Graphs[i] = &cg
	}
	return &c
}

// NewGraph builds a graph from possibly messy edges: self-loops and
// duplicates (in either orientation) are removed and counted in Removed.
// It returns an error for an endpoint outside [0, n). Its IDs are nil (node
// i's id is i) until the caller sets them.
func NewGraph(name string, n int, edges [][2]int32) (*Graph, error) {
	g := &Graph{Name: name, N: n}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("data: %s: %d nodes, more than 2³¹−1 (a graph's node ids are 32-bit)", name, n)
	}
	// Each edge as one sortable key u<<32 | v (u < v): sorting the keys and
	// dropping repeats replaces a map of every edge (at 10⁷ edges, 8 s of a
	// 13 s load went to that map and a closure sort).
	keys := make([]uint64, 0, len(edges))
	for _, e := range edges {
		u, v := int(e[0]), int(e[1])
		if u < 0 || v < 0 || u >= n || v >= n {
			return nil, fmt.Errorf("data: %s: edge (%d,%d) outside %d nodes", name, u, v, n)
		}
		if u == v {
			g.Removed.SelfLoops++
			continue
		}
		if u > v {
			u, v = v, u
		}
		keys = append(keys, uint64(u)<<32|uint64(v))
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		g.Edges = make([][2]int32, 0, len(keys))
	}
	for k, key := range keys {
		if k > 0 && key == keys[k-1] {
			g.Removed.Duplicates++
			continue
		}
		g.Edges = append(g.Edges, [2]int32{int32(key >> 32), int32(key & (1<<32 - 1))})
	}
	return g, nil
}

// MaxNodes is the node count of the largest of graphs (0 for none).
func MaxNodes(graphs []*Graph) int {
	m := 0
	for _, g := range graphs {
		m = max(m, g.N)
	}
	return m
}

// NumNodes returns the total node count.
func (d *Dataset) NumNodes() int {
	n := 0
	for _, g := range d.Graphs {
		n += g.N
	}
	return n
}

// NumEdges returns the total undirected edge count.
func (d *Dataset) NumEdges() int {
	n := 0
	for _, g := range d.Graphs {
		n += len(g.Edges)
	}
	return n
}

// FeatureDim is the input feature width (N for identity features).
func (d *Dataset) FeatureDim() int {
	if d.Identity {
		m := 0
		for _, g := range d.Graphs {
			m = max(m, g.N)
		}
		return m
	}
	if len(d.Graphs) == 0 {
		return 0
	}
	return d.Graphs[0].XDim
}

// NumClasses is the number of distinct labels (0 when unlabelled).
func (d *Dataset) NumClasses() int {
	set := map[int32]bool{}
	for _, g := range d.Graphs {
		for _, l := range g.Labels {
			set[l] = true
		}
	}
	return len(set)
}
