package data

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomicMode: results are readable by other users (issue 11:
// os.CreateTemp's 0600 used to leak through).
func TestWriteFileAtomicMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	if err := WriteFileAtomic(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}
