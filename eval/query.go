package eval

import "github.com/ignn/ignn/data"

// Query is a node whose neighbourhood is scored: graph g's local node Node,
// with its hop distances to every node of g (Row, data.Unreachable where
// there is no path).
type Query struct {
	Graph, Node int
	Row         []uint16 // nil when the row is in a spill file (SpilledQuery)
	spill       *data.Spill[uint16]
	at          int // the row's index in spill
}

// SpilledQuery is the query of node in graph whose BFS row is row at of
// spill (issue 37: at 10⁸ nodes eight held rows are 1.6 GB).
func SpilledQuery(graph, node int, spill *data.Spill[uint16], at int) Query {
	return Query{Graph: graph, Node: node, spill: spill, at: at}
}

// Hops returns the query's hop distances to its graph's nodes lo…hi−1:
// its row's own entries, or buf's (room hi−lo) read from the spill file.
func (q Query) Hops(lo, hi int, buf []uint16) []uint16 {
	if q.spill == nil {
		return q.Row[lo:hi]
	}
	return q.spill.Span(q.at, lo, hi, buf)
}

// Hop is the query's hop distance to node j of its graph.
func (q Query) Hop(j int) uint16 {
	if q.spill == nil {
		return q.Row[j]
	}
	return q.spill.At(q.at, j)
}
