package objective

// The sampled path's BFS rows held in memory or spilled to a file
// (issue 37: 64 rows of N are 12.8 GB at 10⁸ nodes), and one source's row
// as the triples read it.

import (
	"fmt"
	"math/rand/v2"

	"github.com/ignn/ignn/data"
)

// SpillChunk is how many BFS rows drawSpilled holds at a time.
const SpillChunk = 8

// drawSpilled is draw with the rows written to a new spill file in
// r.spillDir (the last draw's is released), SpillChunk at a time, instead
// of held: the same rows, each a function of its source alone.
func (r *TripleSampler) drawSpilled(rng *rand.Rand) error {
	if err := r.Close(); err != nil {
		return err
	}
	r.spill = nil
	r.drawSources(rng)
	u := r.h.Union
	r.rowOff = r.rowOff[:0]
	total := 0
	for _, g := range r.srcGraph {
		r.rowOff = append(r.rowOff, total)
		total += u.Graphs[g].N
	}
	s, err := data.NewSpill[uint16](r.spillDir, total, 1)
	if err != nil {
		return fmt.Errorf("ranking BFS rows: %w", err)
	}
	var rows [][]uint16
	for lo := 0; lo < len(r.srcGraph); lo += SpillChunk {
		hi := min(lo+SpillChunk, len(r.srcGraph))
		rows = r.h.Rows(r.srcGraph[lo:hi], r.srcLocal[lo:hi], rows)
		for _, row := range rows {
			if err := s.Append(row); err != nil {
				s.Close()
				return fmt.Errorf("ranking BFS rows: %w", err)
			}
		}
	}
	r.spill, r.rows = s, nil
	return nil
}

// SpillTo makes the sampled path keep its BFS rows in a file in dir
// (data.Spill: sources × N × 2 B, 12.8 GB at 10⁸ nodes, read by pread, a
// few lookups per triple) instead of the heap, from the next draw on
// (Refresh, FixSources). The triples are the same, bit for bit. Close
// releases the file.
func (r *TripleSampler) SpillTo(dir string) { r.spillDir = dir }

// Close releases the rows' spill file, if any.
func (r *TripleSampler) Close() error {
	if r.spill == nil {
		return nil
	}
	return r.spill.Close()
}

// hopRow is one source's BFS row, held or in the spill from off on.
type hopRow struct {
	v   []uint16
	s   *data.Spill[uint16]
	off int
}

func (h hopRow) at(j int) uint16 {
	if h.s == nil {
		return h.v[j]
	}
	return h.s.At(h.off+j, 0)
}

// row is the k-th fixed or epoch source's row.
func (r *TripleSampler) row(k int) hopRow {
	if r.spill != nil {
		return hopRow{s: r.spill, off: r.rowOff[k]}
	}
	return hopRow{v: r.rows[k]}
}
