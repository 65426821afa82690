package data

import (
	"fmt"
	"io"
	"math"
	"sort"
)

// EdgeList is a user's graph before indexing: edges between arbitrary
// non-negative integer ids.
type EdgeList struct {
	Edges [][2]uint64
	Names Names    // the names of named nodes (see NameID); empty when every id is an integer
	Notes []string // what the reader skipped or ignored (a header, extra columns, values)
	// Source is, for a converted edge list (ReadEdgeBin), the edge list it
	// was converted from: the dataset keeps that name, so a run on the
	// converted folder has the fingerprint of a run on the text.
	Source  string
	release func() error // unmaps a converted list's edges (ReadEdgeBin); nil otherwise
	lines   lineIndex    // the line of each parsed edge (Line)
}

// Line returns the line of the file that edge i came from (0 when not
// known: a converted list).
func (el *EdgeList) Line(i int) int { return el.lines.line(i) }

// lineIndex maps edge indices to lines: a mark where a line's offset from
// its edge's index changes (a comment, a blank line, a header), so a file
// of edges only costs one mark.
type lineIndex struct {
	marks [][2]int // edge index, its line; in index order
	base  int      // edges dropped from the front since the marks were made
}

func (x *lineIndex) mark(i, line int) {
	if n := len(x.marks); n > 0 && line-x.marks[n-1][1] == i-x.marks[n-1][0] {
		return
	}
	x.marks = append(x.marks, [2]int{i, line})
}

func (x *lineIndex) line(i int) int {
	i += x.base
	k := sort.Search(len(x.marks), func(k int) bool { return x.marks[k][0] > i }) - 1
	if k < 0 {
		return 0
	}
	return x.marks[k][1] + i - x.marks[k][0]
}

// Release frees what a converted edge list maps (ReadEdgeBin); Edges must
// not be used after it. It is a no-op for a parsed list and when called
// again.
func (el *EdgeList) Release() error {
	if el.release == nil {
		return nil
	}
	r := el.release
	el.release, el.Edges = nil, nil
	return r()
}

// ParseEdgeList reads an edge list with the default options
// (ParseEdgeListWith): node ids in the first two columns, a header line
// detected. name labels errors ("edges.txt:12: …").
func ParseEdgeList(name string, r io.Reader) (*EdgeList, error) {
	return ParseEdgeListWith(name, r, EdgeListOptions{})
}

// ParseLabels reads "node label" lines (integer label 0 … 2³¹−1, a class
// number; the node an integer id or a name).
func ParseLabels(name string, r io.Reader) (map[uint64]int32, error) {
	return parseLabels(name, r, Names{}, "label")
}

// parseLabels is ParseLabels with the names of named nodes; what names
// the column in messages ("label", "graph index").
func parseLabels(name string, r io.Reader, names Names, what string) (map[uint64]int32, error) {
	out := map[uint64]int32{}
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
		l, err := parseID(f[1], what)
		if err != nil {
			return err
		}
		if l > math.MaxInt32 {
			return fmt.Errorf("%s %s is above 2³¹−1", what, quoteToken(f[1]))
		}
		if _, dup := out[id]; dup {
			return fmt.Errorf("node %s labelled twice", names.short(id))
		}
		out[id] = int32(l)
		return nil
	})
	return out, err
}

// ParseFeatures reads "node v1 … vF" lines (the node an integer id or a
// name); every row must have the width of the first.
func ParseFeatures(name string, r io.Reader) (map[uint64][]float64, int, error) {
	return parseFeatures(name, r, Names{}, nil)
}

// parseFeatures is ParseFeatures with the names of named nodes; when wide
// is not nil it records the line of every row holding a value beyond
// float32's range, by node.
func parseFeatures(name string, r io.Reader, names Names, wide map[uint64]int) (map[uint64][]float64, int, error) {
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
			return fmt.Errorf("node %s has two feature rows", names.short(id))
		}
		row := make([]float64, width)
		for k := range row {
			if row[k], err = parseFloat(f[k+1], k+2); err != nil {
				return err
			}
			if wide != nil && beyondFloat32(row[k]) {
				wide[id] = line
			}
		}
		out[id] = row
		return nil
	})
	return out, width, err
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
