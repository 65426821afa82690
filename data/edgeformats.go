package data

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// EdgeListOptions says how to read a delimited edge list. The zero value
// reads the first two columns and detects a header line.
type EdgeListOptions struct {
	// Header is HeaderAuto (""; a first data line with no numeric field is
	// a header, as pandas, networkx and Neo4j write it), HeaderYes or
	// HeaderNo.
	Header string
	// Columns chooses the edge's two node columns: "" (the first two),
	// "src,dst" by header name, or "0,1" by 0-based position.
	Columns string
}

// The header modes (EdgeListOptions.Header, --header).
const (
	HeaderAuto = "auto"
	HeaderYes  = "yes"
	HeaderNo   = "no"
)

// ParseEdgeListWith reads an edge list: a Matrix Market coordinate file
// (recognised by its %%MatrixMarket banner), or delimited text — one edge
// per line, fields separated by whitespace, commas, tabs or semicolons,
// blank lines, text after # and lines starting with % ignored, an optional
// header line, the node columns chosen by o, further columns (weights,
// timestamps) ignored with a note in EdgeList.Notes.
func ParseEdgeListWith(name string, r io.Reader, o EdgeListOptions) (*EdgeList, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(len(mmBanner)); string(head) == mmBanner {
		return parseMatrixMarket(name, br)
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	cols, byName, err := parseColumns(o.Columns) // checked above
	el := &EdgeList{Names: Names{}}
	var header []string
	headerWhy := "" // why a header line of words before named nodes is one
	widest := 0
	edge := func(line int, f []string) error {
		if need := max(cols[0], cols[1]) + 1; len(f) < need {
			return fmt.Errorf("want at least %d fields (node ids in columns %d and %d), found %d", need, cols[0], cols[1], len(f))
		}
		widest = max(widest, len(f))
		u, err := parseNode(f[cols[0]], el.Names)
		if err != nil {
			return err
		}
		v, err := parseNode(f[cols[1]], el.Names)
		if err != nil {
			return err
		}
		el.Edges = append(el.Edges, [2]uint64{u, v})
		el.lines.mark(len(el.Edges)-1, line)
		return nil
	}
	setHeader := func(f []string) error {
		header = f
		if byName != nil {
			var err error
			cols, err = columnsByName(byName, header)
			return err
		}
		return nil
	}
	// The first data line: a header when declared, data when declared or
	// when it holds a number; otherwise (auto) it is a header if the next
	// line's node columns are integers. A line of words before named nodes,
	// or of two integers, is held (firstLine) until the whole file says
	// whether it is a header, a count line or an edge.
	auto := o.Header != HeaderYes && o.Header != HeaderNo && byName == nil
	var pending, held *firstLine
	hold := func(fl *firstLine) error {
		held = fl
		if err := edge(fl.line, fl.f); err != nil {
			if fl.words || !auto {
				return err
			}
			return nil // counts before edges in other columns: an edge only if not counts
		}
		held.edge = true
		return nil
	}
	rows := 0
	err = scanRows(name, br, func(line int, f []string) error {
		rows++
		if held != nil {
			held.see(f)
		}
		switch {
		case rows == 1 && (o.Header == HeaderYes || byName != nil && o.Header != HeaderNo && !anyNumber(f)):
			return setHeader(f)
		case rows == 1 && o.Header != HeaderNo && !anyNumber(f):
			pending = wordsLine(f, line, cols)
			return nil
		case rows == 1 && byName != nil:
			return fmt.Errorf("--columns %s names columns, but the file has no header line (use positions, e.g. --columns 0,1, or --header yes)", o.Columns)
		case rows == 1 && auto:
			if fl := countsLine(f, line, cols); fl != nil {
				return hold(fl)
			}
		case rows == 2 && pending != nil:
			if intColumns(f, cols) {
				if err := setHeader(pending.f); err != nil {
					return &LineError{name, pending.line, err.Error()}
				}
			} else if err := hold(pending); err != nil { // named nodes: the rest of the file decides
				return &LineError{name, pending.line, err.Error()}
			} else {
				held.see(f)
			}
			pending = nil
		}
		return edge(line, f)
	})
	if err == nil && pending != nil { // one line, no number: a single edge of named nodes
		if err = edge(pending.line, pending.f); err != nil {
			err = &LineError{name, pending.line, err.Error()}
		}
	}
	var heldNote string
	if err == nil && held != nil {
		isHeader, why := held.header()
		isCounts, whyCounts := held.counts(el.Edges, el.Names)
		switch {
		case isHeader:
			held.drop(el)
			header, headerWhy = held.f, why
		case isCounts:
			held.drop(el)
			heldNote = held.note(name, "counts", whyCounts)
		case !held.edge:
			err = &LineError{name, held.line, fmt.Sprintf("want at least %d fields (node ids in columns %d and %d), found %d", max(cols[0], cols[1])+1, cols[0], cols[1], len(held.f))}
		}
	}
	if err != nil {
		return nil, err
	}
	if len(el.Edges) == 0 {
		return nil, &LineError{File: name, Msg: ErrEmpty.Error() + " after the header line"}
	}
	if heldNote != "" {
		el.Notes = append(el.Notes, heldNote)
	}
	if widest > 2 || header != nil || cols != [2]int{0, 1} {
		el.Notes = append(el.Notes, columnNote(name, header, headerWhy, cols, widest))
	}
	return el, nil
}

// Check reports whether o is well formed: a header mode, and two columns
// by position or by name (whether the file has them is for the reader).
func (o EdgeListOptions) Check() error {
	switch o.Header {
	case "", HeaderAuto, HeaderYes, HeaderNo:
	default:
		return fmt.Errorf("data: unknown header mode %q (valid: auto, yes, no)", o.Header)
	}
	_, _, err := parseColumns(o.Columns)
	return err
}

// intColumns reports whether f's node columns are integer ids.
func intColumns(f []string, cols [2]int) bool {
	if len(f) <= max(cols[0], cols[1]) {
		return false
	}
	_, e1 := parseID(f[cols[0]], "")
	_, e2 := parseID(f[cols[1]], "")
	return e1 == nil && e2 == nil
}

// anyNumber reports whether any field parses as a number.
func anyNumber(f []string) bool {
	for _, s := range f {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return true
		}
	}
	return false
}

// parseColumns reads --columns: positions ("0,1") or names ("src,dst",
// returned in byName for the header to resolve).
func parseColumns(s string) (cols [2]int, byName []string, err error) {
	if s == "" {
		return [2]int{0, 1}, nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
		return cols, nil, fmt.Errorf("data: --columns %q: want two columns, source and target, e.g. 0,1 or src,dst", s)
	}
	a, errA := strconv.Atoi(strings.TrimSpace(parts[0]))
	b, errB := strconv.Atoi(strings.TrimSpace(parts[1]))
	switch {
	case errA == nil && errB == nil:
		if a < 0 || b < 0 || a == b || a > 1<<10 || b > 1<<10 {
			return cols, nil, fmt.Errorf("data: --columns %q: two different 0-based positions ≤ 1024", s)
		}
		return [2]int{a, b}, nil, nil
	case errA == nil || errB == nil:
		return cols, nil, fmt.Errorf("data: --columns %q: both positions or both names, not one of each", s)
	}
	return cols, []string{strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])}, nil
}

func columnsByName(names, header []string) ([2]int, error) {
	var cols [2]int
	for k, n := range names {
		cols[k] = -1
		for i, h := range header {
			if h == n {
				cols[k] = i
				break
			}
		}
		if cols[k] < 0 {
			return cols, fmt.Errorf("--columns: no column %q in the header (its columns: %s)", n, listFirst(len(header), ", ", func(i int) string { return shortToken(header[i]) }))
		}
	}
	if cols[0] == cols[1] {
		return cols, fmt.Errorf("--columns: source and target are the same column %q", names[0])
	}
	return cols, nil
}

// columnNote says which columns an edge list's edges came from and what
// was ignored.
func columnNote(name string, header []string, why string, cols [2]int, widest int) string {
	col := func(i int) string {
		if i < len(header) {
			return fmt.Sprintf("%s (column %d)", quoteToken(header[i]), i)
		}
		return fmt.Sprintf("column %d", i)
	}
	s := fmt.Sprintf("%s: ", name)
	if header != nil {
		s += fmt.Sprintf("header line %s skipped", listFirst(len(header), ",", func(i int) string { return shortToken(header[i]) }))
		if why != "" {
			s += " (" + why + "; --header no reads it as an edge)"
		}
		s += "; "
	}
	s += fmt.Sprintf("edges from %s and %s", col(cols[0]), col(cols[1]))
	if n := max(widest, len(header)); n > 2 {
		var ignored []int
		for i := 0; i < n; i++ {
			if i != cols[0] && i != cols[1] {
				ignored = append(ignored, i)
			}
		}
		s += fmt.Sprintf("; ignored %s (edge weights and times are not used for distances yet)", listFirst(len(ignored), ", ", func(i int) string { return col(ignored[i]) }))
	}
	return s
}
