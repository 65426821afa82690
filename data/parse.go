package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// LineError is a problem at one line of an input file.
type LineError struct {
	File string
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ErrEmpty is wrapped by errors about files without data lines.
var ErrEmpty = errors.New("no data lines")

// fields splits a data line on whitespace, commas, tabs or semicolons; it
// returns nil for blank lines, lines starting with % (KONECT's and Matrix
// Market's comments) and # comments.
func fields(line string) []string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "%") {
		return nil
	}
	f := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == ';' })
	if len(f) == 0 {
		return nil
	}
	return f
}

// maxLine is the longest line the text readers take: 1 MiB.
const maxLine = 1 << 20

// newLineScanner returns a scanner of r's lines of at most maxLine bytes.
func newLineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	return sc
}

// scanError is a line scanner's failure at line of the file name: an
// over-long line says what the limit is; the input's own failure
// (InputError) passes as it is.
func scanError(name string, line int, err error) error {
	var ie *InputError
	switch {
	case errors.As(err, &ie):
		return err
	case errors.Is(err, bufio.ErrTooLong):
		return &LineError{name, line, "line longer than 1 MiB, the limit per line (ignn reads text with one edge, label or feature row per line)"}
	}
	return &LineError{name, line, err.Error()}
}

// scanRows calls fn for every data line of r with its 1-based line number.
// name is used in errors. Lines longer than 1 MiB are an error.
func scanRows(name string, r io.Reader, fn func(line int, f []string) error) error {
	sc := newLineScanner(r)
	n, rows := 0, 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte-order mark, as some editors write
		}
		f := fields(text)
		if f == nil {
			continue
		}
		rows++
		if err := fn(n, f); err != nil {
			var le *LineError
			if errors.As(err, &le) {
				return err
			}
			return &LineError{name, n, err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return scanError(name, n+1, err)
	}
	if rows == 0 {
		return &LineError{File: name, Msg: ErrEmpty.Error()}
	}
	return nil
}

// parseID parses a non-negative integer node or graph id.
func parseID(s, what string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s %s is out of range (ids are integers 0 … 18446744073709551615)", what, quoteToken(s))
		}
		if _, ferr := strconv.ParseFloat(s, 64); ferr == nil || strings.HasPrefix(s, "-") {
			return 0, fmt.Errorf("%s %s is not a non-negative integer", what, quoteToken(s))
		}
		return 0, fmt.Errorf("%s %s is not a number", what, quoteToken(s))
	}
	return v, nil
}

func parseFloat(s string, col int) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("column %d: %s is not a number", col, quoteToken(s))
	}
	if v != v || v > 1e300 || v < -1e300 {
		return 0, fmt.Errorf("column %d: %s is not a finite number", col, quoteToken(s))
	}
	return v, nil
}

// openFile opens path with an error that says what was looked for.
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("data: %s: file not found", path)
		}
		return nil, fmt.Errorf("data: %w", err)
	}
	return f, nil
}
