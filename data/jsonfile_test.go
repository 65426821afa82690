package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadJSONFileNamesTheProblem: an empty, a truncated and a non-JSON
// file are each reported as corrupt with the file and what is wrong; an
// absent file is os.ErrNotExist, not corrupt.
func TestReadJSONFileNamesTheProblem(t *testing.T) {
	type Result struct {
		Dataset string `json:"dataset"`
	}
	dir := t.TempDir()
	for body, want := range map[string]string{
		"":                         "empty (0 bytes)",
		`{"dataset": "communities`: "truncated at byte 24",
		`{"dataset": 1,`:           "truncated at byte 14",
		"PK\x03\x04 binary":        "not JSON at byte 1",
		`{"dataset": "x"} trailer`: "not JSON at byte 18",
	} {
		path := filepath.Join(dir, "cell.json")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		var r Result
		err := ReadJSONFile(path, &r)
		var c *CorruptFileError
		if !errors.As(err, &c) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: %v, want corrupt: %s", body, err, want)
		}
	}
	var r Result
	if err := ReadJSONFile(filepath.Join(dir, "absent.json"), &r); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}
