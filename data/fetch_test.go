package data

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestFetchFromMirror serves the shared raw files the way SNAP (gzip, CRLF
// line endings here) and TU Dortmund (zip) do, and checks that Fetch
// verifies and stores them, and refuses a tampered file.
func TestFetchFromMirror(t *testing.T) {
	shared := sharedData(t)
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(shared, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		w.Close()
		return buf.Bytes()
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for entry, dest := range Sources["protein"][0].Files {
		w, _ := zw.Create(entry)
		w.Write(read(dest))
	}
	zw.Close()
	tamper := false
	files := map[string][]byte{
		"email-Eu-core.txt.gz":                   gz(read("email/email.txt")),
		"email-Eu-core-department-labels.txt.gz": gz(read("email/email_labels.txt")),
		"PROTEINS_full.zip":                      zbuf.Bytes(),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[path.Base(r.URL.Path)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if tamper && strings.HasSuffix(r.URL.Path, "labels.txt.gz") {
			b = gz([]byte("0 1\n"))
		}
		w.Write(b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	for _, ds := range []string{"email", "protein"} {
		if err := Fetch(context.Background(), ds, dir, FetchOptions{Mirror: srv.URL}); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := Email(dir); err != nil || len(d.Graphs) != 7 {
		t.Fatalf("fetched email: %v", err)
	}
	if got, want := read("protein/PROTEINS_full_A.txt"), mustRead(t, filepath.Join(dir, "protein/PROTEINS_full_A.txt")); !bytes.Equal(got, want) {
		t.Error("fetched protein A differs")
	}
	tamper = true
	other := t.TempDir()
	err := Fetch(context.Background(), "email", other, FetchOptions{Mirror: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "email/email_labels.txt from") || !strings.Contains(err.Error(), "not written") {
		t.Fatalf("tampered file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "email/email_labels.txt")); err == nil {
		t.Error("a file failing verification was written")
	}
	if err := Fetch(context.Background(), "cora", dir, FetchOptions{Mirror: srv.URL}); err == nil {
		t.Error("unknown dataset accepted")
	}
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
