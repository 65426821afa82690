package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// CorruptFileError is a JSON file (a result, a cell, a checkpoint) that exists but
// does not parse: empty, truncated (an interrupted copy, a full disk) or
// not JSON. Problem says which, with the byte offset.
type CorruptFileError struct {
	Path, Problem string
}

func (e *CorruptFileError) Error() string {
	return fmt.Sprintf("%s is corrupt: %s", e.Path, e.Problem)
}

// ReadJSONFile decodes the JSON file at path into v. A file that cannot be
// read returns the read error (os.ErrNotExist when it is absent); one that
// does not parse returns a *CorruptFileError naming the problem.
func ReadJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &CorruptFileError{Path: path, Problem: jsonProblem(b, err)}
	}
	return nil
}

// jsonProblem names why b did not decode: empty, truncated at byte N, or
// not JSON at byte N (with the decoder's words).
func jsonProblem(b []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(b) == 0:
		return "empty (0 bytes)"
	case errors.As(err, &syn) && syn.Offset >= int64(len(b)):
		return fmt.Sprintf("truncated at byte %d", len(b))
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON at byte %d (%v)", syn.Offset, err)
	case errors.As(err, &typ):
		return fmt.Sprintf("not a result of this format at byte %d (%v)", typ.Offset, err)
	}
	if err.Error() == "unexpected end of JSON input" {
		return fmt.Sprintf("truncated at byte %d", len(b))
	}
	return err.Error()
}
