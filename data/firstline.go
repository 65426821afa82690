package data

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// The first data line of an edge list read with --header auto is often not
// an edge: a header of words (pandas, networkx, Neo4j exports) or, in many
// copies of SNAP graphs, a line of two counts ("5242 28980": nodes, then the
// lines that follow) or of one ("62586": the nodes). firstLine holds such a line until the rest of the
// file decides what it is; until then it is no edge. It decides only on
// evidence the file itself gives, so a first edge that merely looks like a
// header or like counts stays an edge.

// headerWords are the column names edge-list headers use (lower case).
var headerWords = map[string]bool{
	"source": true, "target": true, "src": true, "dst": true, "dest": true, "destination": true,
	"from": true, "to": true, "u": true, "v": true, "node": true, "node1": true, "node2": true,
	"node_1": true, "node_2": true, "id1": true, "id2": true, "source_id": true, "target_id": true,
	"head": true, "tail": true, "weight": true, "w": true, "time": true, "timestamp": true, "sign": true,
}

// firstLine is a first data line (fields f at line) whose meaning the
// lines after it decide. It is read as the first edge (edge: it parsed as
// one) until they decide otherwise.
type firstLine struct {
	f    []string
	line int
	edge bool
	cols [2]int // the node columns
	// named[k] is whether the word in node column k names a node on a
	// later line.
	named [2]bool
	// words: a line with no number, whose fields may be column names;
	// numeric[i] stays true while every later line has a number in column
	// i. Otherwise two integers that may be counts.
	words   bool
	numeric []bool
	later   int // data lines after it
}

func wordsLine(f []string, line int, cols [2]int) *firstLine {
	fl := &firstLine{f: f, line: line, cols: cols, words: true, numeric: make([]bool, len(f))}
	for i := range fl.numeric {
		fl.numeric[i] = true
	}
	return fl
}

// countsLine returns the held line for f when it is one or two
// non-negative integers, else nil.
func countsLine(f []string, line int, cols [2]int) *firstLine {
	if len(f) != 1 && len(f) != 2 {
		return nil
	}
	for _, s := range f {
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return nil
		}
	}
	return &firstLine{f: f, line: line, cols: cols}
}

// drop removes the line's edge (edges[0]) from el, and the names only it
// used.
func (fl *firstLine) drop(el *EdgeList) {
	if !fl.edge {
		return
	}
	el.Edges = el.Edges[1:]
	el.lines.base++
	for k, c := range fl.cols {
		if !fl.named[k] && c < len(fl.f) {
			delete(el.Names, NameID(fl.f[c]))
		}
	}
}

// see records a later data line.
func (fl *firstLine) see(f []string) {
	fl.later++
	for k, c := range fl.cols {
		if fl.words && c < len(fl.f) && !fl.named[k] { // counts name no node
			fl.named[k] = slices.Contains(f, fl.f[c])
		}
	}
	for i := range fl.numeric {
		if fl.numeric[i] && (i >= len(f) || !anyNumber(f[i:i+1])) {
			fl.numeric[i] = false
		}
	}
}

// header reports whether a line of words is a header, and why: a column
// whose every later line holds a number (a weight under "weight"), or
// fields that are all usual column names none of which names a node on a
// later line.
func (fl *firstLine) header() (bool, string) {
	if !fl.words || fl.later == 0 {
		return false, ""
	}
	for i, num := range fl.numeric {
		if num {
			return true, fmt.Sprintf("column %d holds a number on every other line", i)
		}
	}
	for _, s := range fl.f {
		if !headerWords[strings.ToLower(s)] {
			return false, ""
		}
	}
	if fl.named[0] || fl.named[1] {
		return false, "" // a node of the graph: the line is an edge
	}
	return true, "its fields are column names"
}

// counts reports whether a line of two integers N M is a count line, and
// why: N is at least the number of distinct nodes on the data lines after
// it (edges, whose named nodes are in names) and M is the number of those
// lines, or N is that number of nodes and M is between half and twice
// the lines (edges listed once or in both orientations). A line of one
// integer N is one when N is the number of those lines or of their
// distinct nodes (copies of SNAP graphs that start with "62586").
func (fl *firstLine) counts(edges [][2]uint64, names Names) (bool, string) {
	if fl.words || fl.later == 0 {
		return false, ""
	}
	n, _ := strconv.ParseUint(fl.f[0], 10, 64)
	if len(fl.f) == 1 {
		if n == uint64(fl.later) {
			return true, fmt.Sprintf("%d = the data lines after it", n)
		}
		if nodes := distinctNodes(edges, names); nodes > 0 && n == nodes {
			return true, fmt.Sprintf("%d = the distinct nodes after it", n)
		}
		return false, ""
	}
	m, _ := strconv.ParseUint(fl.f[1], 10, 64)
	lines := uint64(fl.later)
	if n < 2 || m < lines/2 || m > 2*lines {
		return false, ""
	}
	if fl.edge {
		edges = edges[1:]
	}
	nodes := distinctNodes(edges, names)
	switch {
	case nodes == 0:
	case m == lines && n >= nodes:
		return true, fmt.Sprintf("%d = the data lines after it, %d ≥ their %d nodes", m, n, nodes)
	case n == nodes:
		return true, fmt.Sprintf("%d = the distinct nodes after it", n)
	}
	return false, ""
}

// distinctNodes counts the distinct endpoints of edges (0 when counting
// would take more than 128 MiB: integer ids of 2³⁰ and above).
func distinctNodes(edges [][2]uint64, names Names) uint64 {
	const limit = 1 << 30
	var seen []uint64
	for _, e := range edges {
		for _, id := range e {
			if len(names) > 0 {
				if _, named := names[id]; named {
					continue
				}
			}
			if id >= limit {
				return 0
			}
			if w := int(id / 64); w >= len(seen) {
				seen = append(seen, make([]uint64, w+1-len(seen))...)
			}
			seen[id/64] |= 1 << (id % 64)
		}
	}
	n := uint64(len(names))
	for _, w := range seen {
		n += uint64(bits.OnesCount64(w))
	}
	return n
}

// note says what a held line was read as.
func (fl *firstLine) note(name, what, why string) string {
	return fmt.Sprintf("%s:%d: first line %s read as %s (%s), not as an edge; --header no reads it as an edge", name, fl.line,
		listFirst(len(fl.f), " ", func(i int) string { return shortToken(fl.f[i]) }), what, why)
}
