package grid

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ignn/ignn/cmd/internal/run"
)

// GridProvenance summarises a grid's cells: the distinct builds and
// machines that produced them (sorted), so a table mixing two builds says
// so.
type GridProvenance struct {
	Builds   []string `json:"builds"`
	Machines []string `json:"machines"`
}

func gridProvenance(results []*run.Result) GridProvenance {
	b, m := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		b[r.Provenance.Build()] = true
		m[r.Provenance.Machine()] = true
	}
	keys := func(s map[string]bool) []string {
		var out []string
		for k := range s {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	return GridProvenance{Builds: keys(b), Machines: keys(m)}
}

// Footer is the line under a grid's table naming its build and machine,
// or warning that its cells come from several.
func (g GridProvenance) Footer() string {
	s := fmt.Sprintf("build %s on %s", strings.Join(g.Builds, ", "), strings.Join(g.Machines, "; "))
	if len(g.Builds) > 1 || len(g.Machines) > 1 {
		s = fmt.Sprintf("WARNING: cells come from %d builds and %d machines — not one experiment: %s", len(g.Builds), len(g.Machines), s)
	}
	return s
}
