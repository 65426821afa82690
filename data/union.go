package data

// Union is the disjoint union of a dataset's graphs: the one graph the
// models run on. Node i of graph g is global row Offsets[g]+i; rows follow
// graph order. Everything per graph (splits, distances, metrics) stays in
// local ids and crosses to global rows only through Union.
type Union struct {
	Graphs  []*Graph
	Offsets []int // Offsets[g] = first global row of graph g
	N       int   // total nodes
}

// NewUnion lays out gs one after another.
func NewUnion(gs []*Graph) *Union {
	u := &Union{Graphs: gs, Offsets: make([]int, len(gs))}
	for g, gr := range gs {
		u.Offsets[g] = u.N
		u.N += gr.N
	}
	return u
}

// Union returns the dataset's graphs as one disjoint union.
func (d *Dataset) Union() *Union { return NewUnion(d.Graphs) }

// Global maps node i of graph g to its global row.
func (u *Union) Global(g, i int) int { return u.Offsets[g] + i }

// GlobalPair maps a pair of graph g to global rows.
func (u *Union) GlobalPair(g int, p Pair) (int, int) {
	off := u.Offsets[g]
	return off + int(p.I), off + int(p.J)
}

// AppendEdges appends graph g's local edges es to dst in global rows.
func (u *Union) AppendEdges(dst [][2]int32, g int, es [][2]int32) [][2]int32 {
	off := u.Offsets[g]
	for _, e := range es {
		dst = append(dst, [2]int32{e[0] + int32(off), e[1] + int32(off)})
	}
	return dst
}

// IDs returns every node's id in global row order.
func (u *Union) IDs() []uint64 {
	ids := make([]uint64, 0, u.N)
	for _, g := range u.Graphs {
		for i := range g.N {
			ids = append(ids, g.ID(i))
		}
	}
	return ids
}
