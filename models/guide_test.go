package models

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuideQuotesTheCode: every line of the Go code that docs/extending.md
// shows (```go blocks; a signature that spans two lines, a function type,
// is matched as one) is a line of a file in models/, so the guide's
// GraphConv, SGC and APPNP cannot drift from the models it walks through.
func TestGuideQuotesTheCode(t *testing.T) {
	doc, err := os.ReadFile("../docs/extending.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	src := map[string]bool{}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
		for _, l := range strings.Split(string(b), "\n") {
			src[strings.TrimSpace(l)] = true
		}
	}
	flat := strings.Join(strings.Fields(all.String()), " ")
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 6 {
		t.Fatalf("found %d Go blocks in docs/extending.md", len(blocks))
	}
	for _, b := range blocks {
		if strings.HasPrefix(b[1], "func(") { // the layer function's type, in the stack's field
			if !strings.Contains(flat, strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(b[1]), "models.Biased")), " ")) {
				t.Errorf("docs/extending.md shows a layer type that no file has:\n%s", b[1])
			}
			continue
		}
		for _, l := range strings.Split(b[1], "\n") {
			if l = strings.TrimSpace(l); l != "" && !src[l] {
				t.Errorf("docs/extending.md shows a line no file in models/ has: %q", l)
			}
		}
	}
}
