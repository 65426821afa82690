package grid

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
)

// TestCorruptCellRunsAgain: a cell file that was emptied or truncated, or
// that parses but is no finished cell ({}, another schema: issue 38), is
// listed by Status as corrupt (with the byte offset), is not mistaken for a
// cell of another configuration, is reported through Warn and run again,
// and the grid's result is the same as before.
func TestCorruptCellRunsAgain(t *testing.T) {
	cc := smallGrid(t.TempDir(), 1)
	cc.Models, cc.Variants, cc.Base.Epochs = []string{"gcn"}, []run.Variant{run.Base}, 4
	first, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	j := cc.Jobs()[0]
	good, err := os.ReadFile(cc.cellPath(j))
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range [][]byte{nil, good[:len(good)/3], []byte("{}"), []byte(`{"schema": 2, "rows": []}`)} {
		if err := os.WriteFile(cc.cellPath(j), body, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := cc.Status()
		unfinished := len(body) > 0 && body[0] == '{' && body[len(body)-1] == '}' // parses, but is no cell (issue 38)
		if err != nil || st[0].State != "corrupt" || (len(body) > 0 && !unfinished && !strings.Contains(st[0].Note, "truncated at byte")) ||
			(unfinished && !strings.Contains(st[0].Note, "not a finished cell: no dataset, no model")) {
			t.Fatalf("status of a %d-byte cell: %+v %v", len(body), st, err)
		}
		var warned []string
		again, err := Compare(context.Background(), cc, CompareHooks{Warn: func(_ Job, msg string) { warned = append(warned, msg) }})
		if err != nil {
			t.Fatalf("a %d-byte cell: %v", len(body), err)
		}
		if len(warned) != 1 || !strings.Contains(warned[0], "is corrupt") || !strings.Contains(warned[0], "running it again") {
			t.Errorf("warnings %q", warned)
		}
		if !reflect.DeepEqual(first.Rows, again.Rows) {
			t.Errorf("rerun of the corrupt cell changed the table")
		}
	}
}
