package report

import (
	"fmt"
	"strings"
)

// Settings is what a resolved configuration trains with, in the words a
// table heading uses (issue 38; run's Config.Settings fills it): the cells of
// one grid may resolve differently (--scale auto decides by each dataset's
// size), so headings and results.json state these, never the flags as given.
type Settings struct {
	Epochs int `json:"epochs"`
	// Steps is one epoch: "1 whole-graph step", "50 mini-batch steps of 512
	// positives" or "a pass over the training positives in mini-batches of 512".
	Steps string `json:"steps"`
	// Input is "features", or "features + " the positional input (hash,
	// lap:K, rw:K, landmark:L) with " + skip" when it also feeds the embedding.
	Input string `json:"input"`
	// Distance is the distance term: "none", "mse" or "rank".
	Distance string `json:"distance"`
}

// Schedule says how many optimiser steps the settings take ("200 epochs × 1
// whole-graph step = 200 optimiser steps").
func (s Settings) Schedule() string {
	var n int
	if _, err := fmt.Sscanf(s.Steps, "%d", &n); err != nil || n <= 0 {
		return fmt.Sprintf("%d epochs, each %s", s.Epochs, s.Steps)
	}
	return fmt.Sprintf("%d epochs × %s = %d optimiser steps", s.Epochs, s.Steps, s.Epochs*n)
}

// Heading states the settings of rows: common, what every row shares
// ("200 epochs, steps per epoch 1 whole-graph step, …"), and perCell, what
// differs ("" when nothing does), by variant when every model agrees per
// variant and by row otherwise. Rows with no settings (zero Epochs:
// reference rows such as (input)) are skipped.
func Heading(rows []Row) (common, perCell string) {
	var rs []Row
	for _, r := range rows {
		if r.Settings.Epochs > 0 {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return "", ""
	}
	fields := []struct {
		name string
		get  func(Settings) string
	}{
		{"epochs", func(s Settings) string { return fmt.Sprint(s.Epochs) }},
		{"steps per epoch", func(s Settings) string { return s.Steps }},
		{"input", func(s Settings) string { return s.Input }},
		{"distance term", func(s Settings) string { return s.Distance }},
	}
	var shared, varying []string
	var vary []func(Settings) string
	for _, f := range fields {
		same := true
		for _, r := range rs {
			same = same && f.get(r.Settings) == f.get(rs[0].Settings)
		}
		v := f.get(rs[0].Settings)
		switch {
		case !same:
			varying, vary = append(varying, f.name), append(vary, f.get)
		case f.name == "epochs":
			shared = append(shared, v+" epochs")
		default:
			shared = append(shared, f.name+" "+v)
		}
	}
	common = strings.Join(shared, ", ")
	if len(vary) == 0 {
		return common, ""
	}
	describe := func(s Settings) string {
		var p []string
		for _, g := range vary {
			p = append(p, g(s))
		}
		return strings.Join(p, "; ")
	}
	// By variant when each variant resolved alike in every model.
	byVariant, order := map[string]string{}, []string(nil)
	for _, r := range rs {
		d := describe(r.Settings)
		if prev, ok := byVariant[r.Variant]; ok && prev != d {
			byVariant = nil
			break
		} else if !ok {
			order = append(order, r.Variant)
		}
		byVariant[r.Variant] = d
	}
	var per []string
	by := "variant"
	if byVariant != nil {
		for _, v := range order {
			per = append(per, v+": "+byVariant[v])
		}
	} else {
		by = "cell"
		for _, r := range rs {
			per = append(per, r.Model+" "+r.Variant+": "+describe(r.Settings))
		}
	}
	return common, fmt.Sprintf("resolved per %s (%s): %s", by, strings.Join(varying, "; "), strings.Join(per, " | "))
}
