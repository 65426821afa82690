package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const formats = "testdata/formats"

// TestFormatsRoundTrip: the same graph as plain text, gzip, bzip2, zstd
// (recognised by content: the test also reads them under a .txt name),
// CSV with a header and a weight column, semicolon-separated with a %
// comment and two extra columns, and Matrix Market gives the same
// dataset; what each reader skipped is in the notes.
func TestFormatsRoundTrip(t *testing.T) {
	want, err := LoadUser(UserFiles{Edges: filepath.Join(formats, "graph.txt")})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Graphs) != 1 || want.Graphs[0].N != 16 || len(want.Graphs[0].Edges) != 28 || len(want.Notes) != 0 {
		t.Fatalf("plain: %d graphs, notes %q", len(want.Graphs), want.Notes)
	}
	dir := t.TempDir()
	for file, note := range map[string]string{
		"graph.txt.gz":     "",
		"graph.txt.bz2":    "",
		"graph.txt.zst":    "",
		"graph.csv":        `header line source,target,weight skipped; edges from "source" (column 0) and "target" (column 1); ignored "weight" (column 2)`,
		"graph.konect.txt": "ignored column 2, column 3",
		"graph.mtx":        "",
	} {
		path := filepath.Join(formats, file)
		got, err := LoadUser(UserFiles{Edges: path})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		got.Name = want.Name
		for g := range got.Graphs {
			got.Graphs[g].Name = want.Graphs[g].Name
		}
		notes := got.Notes
		got.Notes = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: dataset differs from graph.txt's", file)
		}
		if note != "" && (len(notes) != 1 || !strings.Contains(notes[0], note)) {
			t.Errorf("%s: notes %q, want %q", file, notes, note)
		}
		// By content, not by name: the compressed file under a plain name.
		b, _ := os.ReadFile(path)
		plain := filepath.Join(dir, "renamed.txt")
		os.WriteFile(plain, b, 0o644)
		if _, err := LoadUser(UserFiles{Edges: plain}); err != nil {
			t.Errorf("%s read as renamed.txt: %v", file, err)
		}
	}
	// Columns by name and by position pick the same edges.
	for _, cols := range []string{"source,target", "0,1"} {
		got, err := LoadUser(UserFiles{Edges: filepath.Join(formats, "graph.csv"), Columns: cols})
		if err != nil || !reflect.DeepEqual(got.Graphs[0].Edges, want.Graphs[0].Edges) {
			t.Errorf("--columns %s: %v", cols, err)
		}
	}
}

// TestInputErrorsNameTheProblem: a truncated gzip stream, a binary file of
// no known format, a header where numbers are required, a column name
// that is not in the header, and a Matrix Market size mismatch each give
// one line naming the file and the problem.
func TestInputErrorsNameTheProblem(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz, _ := os.ReadFile(filepath.Join(formats, "graph.txt.gz"))
	mtx, _ := os.ReadFile(filepath.Join(formats, "graph.mtx"))
	csv := filepath.Join(formats, "graph.csv")
	for _, c := range []struct {
		files UserFiles
		want  string
	}{
		{UserFiles{Edges: write("cut.gz", gz[:len(gz)/2])}, "cut.gz: the gzip stream is damaged or truncated after"},
		{UserFiles{Edges: write("img.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))}, "img.png: binary content (a NUL byte at offset 8)"},
		{UserFiles{Edges: filepath.Join(formats, "graph.txt"), Labels: write("labels.csv", []byte("node,label\n1,x\n"))}, `labels.csv:2: label "x" is not a number`},
		{UserFiles{Edges: filepath.Join(formats, "graph.txt"), Labels: write("big.csv", []byte("node,label\n1,2147483647\n2,2147483648\n"))}, `big.csv:3: label "2147483648" is above 2³¹−1`},
		{UserFiles{Edges: filepath.Join(formats, "graph.txt"), GraphIndex: write("gi.txt", []byte("1 18446744073709551615\n"))}, `gi.txt:1: graph index "18446744073709551615" is above 2³¹−1`},
		{UserFiles{Edges: csv, Columns: "src,dst"}, `graph.csv:1: --columns: no column "src" in the header (its columns: source, target, weight)`},
		{UserFiles{Edges: filepath.Join(formats, "graph.txt"), Columns: "a,b"}, "graph.txt:1: --columns a,b names columns, but the file has no header line"},
		{UserFiles{Edges: write("short.mtx", []byte(strings.Replace(string(mtx), "16 16 28", "16 16 29", 1)))}, "short.mtx: the size line declares 29 entries, the file has 28"},
		{UserFiles{Edges: write("big.mtx", []byte(strings.Replace(string(mtx), "16 16 28", "15 15 28", 1)))}, "is outside the declared 15×15 size"},
		{UserFiles{Edges: write("rect.mtx", []byte(strings.Replace(string(mtx), "16 16 28", "16 17 28", 1)))}, "short.mtx"[:0] + "a 16×17 matrix is not the adjacency of a graph"},
		{UserFiles{Edges: write("dense.mtx", []byte("%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n"))}, "dense.mtx:1: Matrix Market array format"},
	} {
		_, err := LoadUser(c.files)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want %q", c.files, err, c.want)
		}
	}
}

func FuzzParseMatrixMarket(f *testing.F) {
	mtx, _ := os.ReadFile(filepath.Join(formats, "graph.mtx"))
	f.Add(string(mtx))
	f.Add("%%MatrixMarket matrix coordinate real general\n% c\n2 2 1\n1 2 0.5\n")
	f.Add("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 4\n")
	f.Fuzz(func(t *testing.T, s string) {
		el, err := ParseEdgeListWith("fuzz", strings.NewReader(s), EdgeListOptions{})
		if err == nil && len(el.Edges) == 0 {
			t.Fatal("no error and no edges")
		}
	})
}

func FuzzDecompressed(f *testing.F) {
	for _, n := range []string{"graph.txt", "graph.txt.gz", "graph.txt.bz2", "graph.txt.zst"} {
		b, _ := os.ReadFile(filepath.Join(formats, n))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, _, closeZ, err := decompressed(strings.NewReader(string(b)))
		if err != nil {
			return
		}
		defer closeZ()
		ParseEdgeListWith("fuzz", r, EdgeListOptions{}) // must not panic or hang
	})
}
