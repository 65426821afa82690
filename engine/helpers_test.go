package engine_test

import . "github.com/ignn/ignn/engine"

// testAdj is a 5-node graph: path 0-1-2-3 plus edge 1-4 (4 is a leaf).
func testAdj() *Adjacency {
	return NewAdjacency(5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 1}, {2, 2}})
}
