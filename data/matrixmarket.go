package data

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

const mmBanner = "%%MatrixMarket"

// parseMatrixMarket reads a Matrix Market coordinate file (NIST's format,
// as SuiteSparse and NetworkRepository publish graphs): the banner
// "%%MatrixMarket matrix coordinate pattern|real|integer
// general|symmetric", % comment lines, the size line "rows cols entries",
// then one "i j [value]" entry per line, 1-based. Node ids are the file's
// own 1-based numbers; values are ignored (with a note); the entry count
// and every index are checked against the size line.
func parseMatrixMarket(name string, br *bufio.Reader) (*EdgeList, error) {
	sc := newLineScanner(br)
	lineNo := 0
	fail := func(msg string, a ...any) error { return &LineError{name, lineNo, fmt.Sprintf(msg, a...)} }
	lineNo++
	if !sc.Scan() && sc.Err() != nil {
		return nil, scanError(name, lineNo, sc.Err())
	}
	banner := strings.Fields(strings.ToLower(sc.Text()))
	if len(banner) != 5 || banner[1] != "matrix" {
		return nil, fail("a Matrix Market banner needs 5 words: %%%%MatrixMarket matrix coordinate <field> <symmetry>")
	}
	if banner[2] != "coordinate" {
		return nil, fail("Matrix Market %s format: only the coordinate (sparse) format is a graph", shortToken(banner[2]))
	}
	field, sym := banner[3], banner[4]
	if field != "pattern" && field != "real" && field != "integer" {
		return nil, fail("Matrix Market field %s: ignn reads pattern, real and integer", quoteToken(field))
	}
	if sym != "general" && sym != "symmetric" {
		return nil, fail("Matrix Market symmetry %s: ignn reads general and symmetric", quoteToken(sym))
	}
	want := 2
	if field != "pattern" {
		want = 3
	}
	var rows, cols, entries uint64
	sized := false
	el := &EdgeList{}
	for sc.Scan() {
		lineNo++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '%' {
			continue
		}
		f := strings.Fields(t)
		if !sized {
			if len(f) != 3 {
				return nil, fail("the size line needs 3 numbers: rows columns entries, found %d fields", len(f))
			}
			var err error
			for k, p := range []*uint64{&rows, &cols, &entries} {
				if *p, err = strconv.ParseUint(f[k], 10, 64); err != nil {
					return nil, fail("size %s is not a non-negative integer", quoteToken(f[k]))
				}
			}
			if rows != cols {
				return nil, fail("a %d×%d matrix is not the adjacency of a graph (it must be square)", rows, cols)
			}
			sized = true
			continue
		}
		if len(f) != want {
			return nil, fail("a %s entry has %d fields (i j%s), found %d", field, want, map[bool]string{true: "", false: " value"}[want == 2], len(f))
		}
		i, err := parseID(f[0], "row index")
		if err != nil {
			return nil, fail("%v", err)
		}
		j, err := parseID(f[1], "column index")
		if err != nil {
			return nil, fail("%v", err)
		}
		if i < 1 || j < 1 || i > rows || j > cols {
			return nil, fail("entry (%d, %d) is outside the declared %d×%d size (indices are 1-based)", i, j, rows, cols)
		}
		if uint64(len(el.Edges)) == entries {
			return nil, fail("more entries than the %d the size line declares", entries)
		}
		el.Edges = append(el.Edges, [2]uint64{i, j})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, lineNo+1, err)
	}
	switch {
	case !sized:
		return nil, &LineError{File: name, Msg: "no size line: the file ends after its comments"}
	case uint64(len(el.Edges)) != entries:
		return nil, &LineError{File: name, Msg: fmt.Sprintf("the size line declares %d entries, the file has %d (truncated?)", entries, len(el.Edges))}
	case len(el.Edges) == 0:
		return nil, &LineError{File: name, Msg: ErrEmpty.Error()}
	}
	if field != "pattern" {
		el.Notes = append(el.Notes, fmt.Sprintf("%s: Matrix Market %s values ignored (edge weights are not used for distances yet)", name, field))
	}
	return el, nil
}
