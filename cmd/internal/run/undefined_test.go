package run

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/data/datatest"
	"github.com/ignn/ignn/features"
)

// TestUndefinedMetricsEncode: on 20 single-edge components τ is undefined
// (every finite-distance pair is at distance 1: all ties), and the run's
// result still encodes, τ as null (issue 66: `train --json` failed with
// "json: unsupported value: NaN"). Then every float of the result outside
// its Config (checked finite by Validate) and Provenance is set to NaN in
// turn, and the result must still encode with that field null: no
// undefined metric can lose a result.
func TestUndefinedMetricsEncode(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "%d %d\n", 2*i, 2*i+1)
	}
	path := datatest.File(t, "single.txt", b.String())
	cfg := Default()
	cfg.Dataset, cfg.Epochs, cfg.EvalEvery = path, 4, 2
	cfg.Explicit = map[string]bool{"epochs": true, "eval-every": true} // the other settings as the CLI resolves them
	res, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("the result does not encode: %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if tau, ok := back["test_kendall_tau"]; !ok || tau != nil {
		t.Errorf("test_kendall_tau = %v, want null", tau)
	}
	// Every float field, set to NaN in turn.
	if res.Faithfulness == nil {
		res.Faithfulness = &Faithfulness{}
	}
	if len(res.Faithfulness.Buckets) == 0 {
		res.Faithfulness.Buckets = []Bucket{{}}
	}
	if res.SkipChoice == nil {
		res.SkipChoice = &SkipChoice{}
	}
	if len(res.Encoding) == 0 {
		res.Encoding = make([]features.EncodingInfo, 1)
	}
	if len(res.Encoding[0].Eigenvalues) == 0 {
		res.Encoding[0].Eigenvalues = []float64{1}
	}
	res.TauCI, res.Final.TauCI = []Num{0, 0}, []Num{0, 0}
	res.History = append(res.History, res.Final)
	n := 0
	walkFloats(reflect.ValueOf(res).Elem(), "", func(name string, v reflect.Value) {
		n++
		old := v.Float()
		v.SetFloat(math.NaN())
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s = NaN: %v", name, err)
		}
		v.SetFloat(old)
	})
	if n < 30 {
		t.Errorf("walked %d float fields, want every one (≥ 30)", n)
	}
}

// measured are the result's wall times: finite by construction.
var measured = map[string]bool{"TrainSeconds": true, "MsPerEpoch": true, "MsPerEpochMean": true, "PrepareSeconds": true,
	"EvalSeconds": true, "MsPerStep": true, "EncodingSeconds": true, "StageSeconds": true}

// walkFloats calls fn for every settable float in v (struct fields,
// slices, arrays, pointers), except the run's settings (Config),
// Provenance and wall times (measured).
func walkFloats(v reflect.Value, name string, fn func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		fn(name, v)
	case reflect.Pointer:
		if !v.IsNil() {
			walkFloats(v.Elem(), name, fn)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkFloats(v.Index(i), fmt.Sprintf("%s[%d]", name, i), fn)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(Config{}) || v.Type() == reflect.TypeOf(Provenance{}) {
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && !measured[f.Name] {
				walkFloats(v.Field(i), name+"."+f.Name, fn)
			}
		}
	}
}
