package eval

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Summary describes the defined (non-NaN) values of a metric over seeds:
// N of them, their mean, the sample standard deviation (n − 1; NaN for
// N < 2) and the 95% Student-t interval of the mean (NaN for N < 2).
type Summary struct {
	Mean, Std float64
	N         int
	Lo, Hi    float64
}

// Summarise ignores NaN (undefined) values.
func Summarise(xs []float64) Summary {
	var ys []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ys = append(ys, x)
		}
	}
	s := Summary{Mean: math.NaN(), Std: math.NaN(), N: len(ys), Lo: math.NaN(), Hi: math.NaN()}
	if s.N == 0 {
		return s
	}
	s.Mean = 0
	for _, y := range ys {
		s.Mean += y
	}
	s.Mean /= float64(s.N)
	if s.N < 2 {
		return s
	}
	var v float64
	for _, y := range ys {
		v += (y - s.Mean) * (y - s.Mean)
	}
	s.Std = math.Sqrt(v / float64(s.N-1))
	half := tQuantile(s.N-1) * s.Std / math.Sqrt(float64(s.N))
	s.Lo, s.Hi = s.Mean-half, s.Mean+half
	return s
}

// tQuantile is the 0.975 quantile of Student's t with df degrees of
// freedom (the 95% two-sided critical value).
func tQuantile(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}

// String formats "0.993 ± 0.002" (sample std), "0.993" for one value, or
// "undefined".
func (s Summary) String() string {
	switch {
	case s.N == 0:
		return "undefined"
	case s.N == 1:
		return fmt.Sprintf("%.3f", s.Mean)
	}
	return fmt.Sprintf("%.3f ± %.3f", s.Mean, s.Std)
}

// Paired compares a variant with a baseline on the same seeds (and so the
// same splits): the mean difference variant − base over the N seeds where
// both are defined, its 95% t interval, the two-sided paired t-test p-value
// and the two-sided exact sign-flip permutation p-value (all 2^N sign
// patterns of the differences; N ≤ 20, else NaN), defined as scipy's
// permutation_test does: min(1, 2·min(P(T ≥ t), P(T ≤ t))).
type Paired struct {
	N            int
	Mean, Lo, Hi float64
	PT, PPerm    float64
}

// PairedTest computes Paired for variant and base, index by index.
func PairedTest(variant, base []float64) Paired {
	var d []float64
	for i := range variant {
		if i < len(base) && !math.IsNaN(variant[i]) && !math.IsNaN(base[i]) {
			d = append(d, variant[i]-base[i])
		}
	}
	s := Summarise(d)
	p := Paired{N: s.N, Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, PT: math.NaN(), PPerm: math.NaN()}
	if s.N < 2 {
		return p
	}
	if s.Std == 0 {
		if s.Mean != 0 {
			p.PT = 0
		}
	} else {
		t := s.Mean / (s.Std / math.Sqrt(float64(s.N)))
		p.PT = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Survival(math.Abs(t))
	}
	if s.N <= 20 {
		p.PPerm = signFlipP(d)
	}
	return p
}

// signFlipP is the exact two-sided sign-flip permutation p-value of the
// mean of d.
func signFlipP(d []float64) float64 {
	n := len(d)
	obs := 0.0
	for _, x := range d {
		obs += x
	}
	tol := 1e-12 * math.Max(1, math.Abs(obs))
	var ge, le int
	for mask := 0; mask < 1<<n; mask++ {
		s := 0.0
		for i, x := range d {
			if mask>>i&1 == 1 {
				s -= x
			} else {
				s += x
			}
		}
		if s >= obs-tol {
			ge++
		}
		if s <= obs+tol {
			le++
		}
	}
	total := float64(int(1) << n)
	return math.Min(1, 2*math.Min(float64(ge)/total, float64(le)/total))
}
