package engine_test

import (
	"testing"

	. "github.com/ignn/ignn/engine"

	"gorgonia.org/tensor"
)

func TestBuilderRejectsDuplicateNames(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a duplicate name")
		}
	}()
	b := NewBuilder(NewParamStore(tensor.Float64, Stream(1, "init")), false)
	b.Param("w", Zeros, 2, 2)
	b.Param("w", Zeros, 2, 2)
}
