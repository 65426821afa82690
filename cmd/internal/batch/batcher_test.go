package batch

import (
	"slices"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/objective"
)

// TestBatchPassCoversEachPositiveOnce: the positives of consecutive steps,
// across epoch boundaries, are each training positive once per pass of P
// draws.
func TestBatchPassCoversEachPositiveOnce(t *testing.T) {
	g, err := data.NewGraph("g", 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	var train []data.Pair // 97 distinct positives: 35 draws per epoch do not divide them
	for i := int32(0); len(train) < 97; i++ {
		for j := i + 1; j < 60 && len(train) < 97; j += 7 {
			train = append(train, data.Pair{I: i, J: j})
		}
	}
	const steps = 5
	b, err := New(Input{Union: data.NewUnion([]*data.Graph{g}), Train: [][]data.Pair{train}, Seed: 1, Size: 7, Steps: steps, Layers: 2})
	if err != nil {
		t.Fatal(err)
	}
	P := len(b.pos)
	var drawn objective.Pairs
	counts := make([]int, 1)
	for epoch := 0; drawn.Len() < 2*P; epoch++ {
		for step := 0; step < steps; step++ {
			b.Positives(epoch, step, &drawn, counts)
		}
	}
	all := map[[2]int]bool{}
	for _, q := range b.pos {
		all[[2]int{int(q.I), int(q.J)}] = true
	}
	for pass := 0; pass < 2; pass++ {
		seen := map[[2]int]bool{}
		for k := pass * P; k < (pass+1)*P; k++ {
			q := [2]int{drawn.I[k], drawn.J[k]}
			if !all[q] || seen[q] {
				t.Fatalf("pass %d draw %d: %v is not a training positive or came twice", pass, k, q)
			}
			seen[q] = true
		}
	}
	if slices.Equal(drawn.I[:P], drawn.I[P:2*P]) {
		t.Fatal("the second pass repeats the first one's order")
	}
}
