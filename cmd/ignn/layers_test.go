package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layers ranks the module's packages: a package may import only packages
// of a lower rank (docs/architecture.md draws the same picture).
var layers = map[string]int{
	"engine/internal/blas": 0,
	"data":                 1,
	"engine":               1,
	"engine/enginetest":    2, // imported by tests only
	"data/datatest":        2, // imported by tests only
	"eval":                 2,
	"features":             2,
	"models":               2,
	"objective":            2,
	"cmd/internal/batch":   3,
	"cmd/internal/infer":   3,
	"cmd/internal/memplan": 3,
	"cmd/internal/stages":  3,
	"cmd/internal/slurm":   3,
	"cmd/internal/report":  3,
	"cmd/internal/run":     4,
	"cmd/internal/grid":    5,
	"cmd/ignn":             6,
	"scripts/selectgrid":   6,
}

// TestImportsPointDown parses every production file of the module and
// fails on an import that points sideways or up, or on a package missing
// from the table (a new package must be placed in it).
func TestImportsPointDown(t *testing.T) {
	const module = "github.com/ignn/ignn/"
	root := "../.."
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "out") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		rank, ok := layers[pkg]
		if !ok {
			t.Errorf("package %s is not in the layer table", pkg)
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			dep := strings.TrimPrefix(p, module)
			if r, ok := layers[dep]; !ok || r >= rank {
				t.Errorf("%s imports %s (layer %d → %d): imports must point down", path, dep, rank, r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !seen["cmd/internal/run"] || !seen["engine"] {
		t.Fatalf("walked the wrong tree: %v", seen)
	}
}
