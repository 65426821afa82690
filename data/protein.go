package data

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
)

// ProteinFilter holds P-GNN's graph filters.
type ProteinFilter struct{ MinNodes, MaxNodes int }

// Protein loads TU PROTEINS_full from dir/protein/ with P-GNN's
// construction: isolated nodes removed, graphs with MinNodes ≤ n ≤ MaxNodes
// (20..1000) and at most n²/4 same-label pairs kept (364 graphs, 17,997
// nodes). Features: the 29 attributes, each row standardised to zero mean and
// unit (population) std. Labels: the SSE type. Hash keys: the TU node ids.
func Protein(dir string) (*Dataset, error) {
	base := filepath.Join(dir, "protein", "PROTEINS_full_")
	ip := base + "graph_indicator.txt"
	ind, err := readWith(ip, parseColumn)
	if err != nil {
		return nil, err
	}
	n := len(ind)
	lp := base + "node_labels.txt"
	lab, err := readWith(lp, parseColumn)
	if err != nil {
		return nil, err
	}
	if len(lab) != n {
		return nil, fmt.Errorf("data: %s has %d lines, %s has %d", lp, len(lab), ip, n)
	}
	xp := base + "node_attributes.txt"
	xf, err := openFile(xp)
	if err != nil {
		return nil, err
	}
	var X []float64
	width := -1
	err = scanRows(xp, xf, func(line int, f []string) error {
		if width < 0 {
			width = len(f)
		} else if len(f) != width {
			return fmt.Errorf("%d attributes, earlier rows have %d", len(f), width)
		}
		for k, s := range f {
			v, err := parseFloat(s, k+1)
			if err != nil {
				return err
			}
			X = append(X, v)
		}
		return nil
	})
	xf.Close()
	if err != nil {
		return nil, err
	}
	if len(X)/width != n {
		return nil, fmt.Errorf("data: %s has %d rows, %s has %d", xp, len(X)/width, ip, n)
	}
	ap := base + "A.txt"
	af, err := openFile(ap)
	if err != nil {
		return nil, err
	}
	var edges [][2]int
	err = scanRows(ap, af, func(line int, f []string) error {
		if len(f) != 2 {
			return fmt.Errorf("want \"row, col\", found %d fields", len(f))
		}
		var e [2]int
		for k := 0; k < 2; k++ {
			v, err := parseID(f[k], "node id")
			if err != nil {
				return err
			}
			if v < 1 || int(v) > n {
				return fmt.Errorf("node id %d outside 1..%d", v, n)
			}
			e[k] = int(v) - 1
		}
		if ind[e[0]] != ind[e[1]] {
			return fmt.Errorf("edge %d–%d joins graphs %d and %d", e[0]+1, e[1]+1, ind[e[0]], ind[e[1]])
		}
		edges = append(edges, e)
		return nil
	})
	af.Close()
	if err != nil {
		return nil, err
	}
	deg := make([]int, n)
	for _, e := range edges {
		if e[0] != e[1] {
			deg[e[0]]++
			deg[e[1]]++
		}
	}
	// Group non-isolated nodes by graph, in id order.
	members := map[int][]int{}
	var order []int
	for v := 0; v < n; v++ {
		if deg[v] == 0 {
			continue
		}
		g := ind[v]
		if _, ok := members[g]; !ok {
			order = append(order, g)
		}
		members[g] = append(members[g], v)
	}
	byGraph := map[int][][2]int{}
	for _, e := range edges {
		byGraph[ind[e[0]]] = append(byGraph[ind[e[0]]], e)
	}
	filt := ProteinFilter{20, 1000}
	ds := &Dataset{Name: "protein"}
	for _, gid := range order {
		nodes := members[gid]
		m := len(nodes)
		if m < filt.MinNodes || m > filt.MaxNodes {
			continue
		}
		same := 0
		for i := 0; i < m; i++ {
			for j := 0; j < i; j++ {
				if lab[nodes[i]] == lab[nodes[j]] {
					same++
				}
			}
		}
		if same > m*m/4 {
			continue
		}
		local := map[int]int{}
		for i, v := range nodes {
			local[v] = i
		}
		var le [][2]int32
		for _, e := range byGraph[gid] {
			le = append(le, [2]int32{int32(local[e[0]]), int32(local[e[1]])})
		}
		g, err := NewGraph(fmt.Sprintf("protein#%d", gid), m, le)
		if err != nil {
			return nil, err
		}
		g.Labels, g.IDs = make([]int32, m), make([]uint64, m)
		g.XDim = width
		g.X = make([]float64, 0, m*width)
		for i, v := range nodes {
			g.IDs[i] = uint64(v + 1)
			g.Labels[i] = int32(lab[v])
			g.X = append(g.X, standardise(X[v*width:(v+1)*width])...)
		}
		ds.Graphs = append(ds.Graphs, g)
	}
	return ds, nil
}

// standardise returns (x − mean)/std over one row (population std; a
// constant row becomes zeros).
func standardise(x []float64) []float64 {
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(len(x)))
	out := make([]float64, len(x))
	for i, v := range x {
		if sd > 0 {
			out[i] = (v - mean) / sd
		}
	}
	return out
}

// parseColumn reads one integer per line.
func parseColumn(name string, r io.Reader) ([]int, error) {
	var out []int
	err := scanRows(name, r, func(line int, f []string) error {
		if len(f) != 1 {
			return fmt.Errorf("want one integer, found %d fields", len(f))
		}
		v, err := parseID(f[0], "value")
		if err != nil {
			return err
		}
		out = append(out, int(v))
		return nil
	})
	return out, err
}
