package data

import (
	"fmt"
	"path/filepath"
	"sort"
)

// Email loads SNAP email-Eu-core from dir/email/{email.txt,email_labels.txt}
// with P-GNN's construction: undirected, self-loops dropped, only edges
// whose ends share the department group dept/6, connected components with
// more than 10 nodes become graphs (7 graphs, 920 nodes). Graphs are ordered
// by size (largest first), nodes by SNAP id; labels are departments; the
// feature is a constant 1; hash keys are the SNAP ids.
func Email(dir string) (*Dataset, error) {
	ep := filepath.Join(dir, "email", "email.txt")
	lp := filepath.Join(dir, "email", "email_labels.txt")
	el, err := readWith(ep, ParseEdgeList)
	if err != nil {
		return nil, err
	}
	labels, err := readWith(lp, ParseLabels)
	if err != nil {
		return nil, err
	}
	n := len(labels)
	for i := 0; i < n; i++ {
		if _, ok := labels[uint64(i)]; !ok {
			return nil, fmt.Errorf("data: %s: node %d has no label (ids must be 0..%d)", lp, i, n-1)
		}
	}
	adj := make([][]int, n)
	for _, e := range el.Edges {
		u, v := int(e[0]), int(e[1])
		if u >= n || v >= n {
			return nil, fmt.Errorf("data: %s: edge %d–%d names a node without a label (%d labelled)", ep, u, v, n)
		}
		if u == v || labels[e[0]]/6 != labels[e[1]]/6 {
			continue
		}
		adj[u] = append(adj[u], v)
		adj[v] = append(adj[v], u)
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var comps [][]int
	for s := 0; s < n; s++ {
		if comp[s] >= 0 {
			continue
		}
		c := len(comps)
		queue := []int{s}
		comp[s] = c
		for h := 0; h < len(queue); h++ {
			for _, v := range adj[queue[h]] {
				if comp[v] < 0 {
					comp[v] = c
					queue = append(queue, v)
				}
			}
		}
		sort.Ints(queue)
		comps = append(comps, queue)
	}
	sort.SliceStable(comps, func(a, b int) bool { return len(comps[a]) > len(comps[b]) })
	ds := &Dataset{Name: "email"}
	for _, nodes := range comps {
		if len(nodes) <= 10 {
			continue
		}
		local := map[int]int{}
		for i, v := range nodes {
			local[v] = i
		}
		var edges [][2]int32
		for _, u := range nodes {
			for _, v := range adj[u] {
				if u < v {
					edges = append(edges, [2]int32{int32(local[u]), int32(local[v])})
				}
			}
		}
		g, err := NewGraph(fmt.Sprintf("email#%d", len(ds.Graphs)), len(nodes), edges)
		if err != nil {
			return nil, err
		}
		g.Labels, g.IDs = make([]int32, len(nodes)), make([]uint64, len(nodes))
		g.X = make([]float64, len(nodes))
		g.XDim = 1
		for i, v := range nodes {
			g.IDs[i] = uint64(v)
			g.Labels[i] = labels[uint64(v)]
			g.X[i] = 1
		}
		ds.Graphs = append(ds.Graphs, g)
	}
	return ds, nil
}
