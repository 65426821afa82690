package features

import (
	"encoding/json"
	"math"
)

// MarshalJSON implements json.Marshaler: the fields as tagged, a figure
// that is not finite (a solver that could not compute it) as null, so a
// result holding an EncodingInfo always encodes.
func (e EncodingInfo) MarshalJSON() ([]byte, error) {
	number := func(x float64) json.RawMessage {
		if x == 0 { // omitted, as the tags say
			return nil
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return json.RawMessage("null")
		}
		b, _ := json.Marshal(x)
		return b
	}
	out := struct {
		Method      string            `json:"method"`
		MaxResidual json.RawMessage   `json:"max_residual,omitempty"`
		Eigenvalues []json.RawMessage `json:"eigenvalues,omitempty"`
		Walks       int               `json:"walks,omitempty"`
		StdErrMax   json.RawMessage   `json:"std_err_max,omitempty"`
		Landmarks   []int             `json:"landmarks,omitempty"`
	}{Method: e.Method, MaxResidual: number(e.MaxResidual), Walks: e.Walks, StdErrMax: number(e.StdErrMax), Landmarks: e.Landmarks}
	for _, v := range e.Eigenvalues {
		if v == 0 {
			out.Eigenvalues = append(out.Eigenvalues, json.RawMessage("0"))
			continue
		}
		out.Eigenvalues = append(out.Eigenvalues, number(v))
	}
	return json.Marshal(out)
}
