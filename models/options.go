package models

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Option is a setting a model owns, declared once in the model's file: the
// flag that sets it in train, compare and sweep, its kind (Default's type),
// its accepted values (Range, Choices), its help, and where a value goes.
// The CLI takes the flag, its bounds check and its line of the flag
// reference (docs/flags.md) from here, and refuses it for a run whose
// models do not register it. Models that share an option (P-GNN-F and
// P-GNN-E) register the same Option value; the CLI adds each flag once.
type Option struct {
	Flag  string // the CLI flag, without dashes ("heads")
	Usage string // the flag's help, naming the model it applies to
	// Default is the flag's default and fixes its kind: int, float64,
	// string or bool.
	Default any
	// Range is an int or float64 option's accepted values (required for
	// them; Register panics without it).
	Range *Range
	// Choices, when set, are a string option's accepted values.
	Choices []string
	// Set stores an accepted v (of Default's kind) in c. Nil stores it in
	// c.Own under Flag (SetOwn; read it back with Int, Float, String or
	// Bool): a model's own option needs no field in Config. Setting
	// Default must leave a Config as DefaultConfig has it, so other
	// models' configurations never change.
	Set func(c *Config, v any) error
}

// Range is a numeric option's or flag's accepted values: [Min, Max], an
// end excluded when MinOpen or MaxOpen, and the Sentinels outside it,
// whose meaning Note gives ("or 0 for the model's default").
type Range struct {
	Min, Max         float64
	MinOpen, MaxOpen bool
	Sentinels        []float64
	Note             string
}

// Contains reports whether x is in r or one of its sentinels (never NaN).
func (r Range) Contains(x float64) bool {
	for _, s := range r.Sentinels {
		if x == s {
			return true
		}
	}
	switch {
	case math.IsNaN(x), x < r.Min, x > r.Max, r.MinOpen && x == r.Min, r.MaxOpen && x == r.Max:
		return false
	}
	return true
}

// Describe is r in words, for an integer or a float flag: "an integer in
// 1…1024", "a finite number > 0", "in [0, 1)", then the note.
func (r Range) Describe(integer bool) string {
	num := func(x float64) string {
		switch {
		case x == math.MaxUint64:
			return "2⁶⁴ − 1"
		case x >= 1<<20 && x == math.Exp2(math.Round(math.Log2(x))):
			return fmt.Sprintf("2^%d", int(math.Round(math.Log2(x))))
		}
		if x == math.Trunc(x) {
			return fmt.Sprintf("%.0f", x)
		}
		return fmt.Sprintf("%g", x)
	}
	var s string
	switch {
	case integer:
		s = fmt.Sprintf("an integer in %s…%s", num(r.Min), num(r.Max))
	case math.IsInf(r.Max, 1):
		op := "≥"
		if r.MinOpen {
			op = ">"
		}
		s = fmt.Sprintf("a finite number %s %s", op, num(r.Min))
	default:
		lo, hi := "[", "]"
		if r.MinOpen {
			lo = "("
		}
		if r.MaxOpen {
			hi = ")"
		}
		s = fmt.Sprintf("in %s%s, %s%s", lo, num(r.Min), num(r.Max), hi)
	}
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}

// Accepted is what o accepts in words ("an integer in 1…1024", "one of
// step, once"), "" for a bool.
func (o Option) Accepted() string {
	switch {
	case o.Range != nil:
		_, integer := o.Default.(int)
		return o.Range.Describe(integer)
	case len(o.Choices) > 0:
		return "one of " + strings.Join(o.Choices, ", ")
	}
	return ""
}

// Apply checks v (of Default's kind) against o's range or choices and
// stores it in c; the error names the flag and what it accepts.
func (o Option) Apply(c *Config, v any) error {
	if reflect.TypeOf(v) != reflect.TypeOf(o.Default) {
		return fmt.Errorf("--%s takes a %T, got %v (%T)", o.Flag, o.Default, v, v)
	}
	ok := true
	switch x := v.(type) {
	case int:
		ok = o.Range.Contains(float64(x))
	case float64:
		ok = o.Range.Contains(x)
	case string:
		ok = len(o.Choices) == 0 || slices.Contains(o.Choices, x)
	}
	if !ok {
		return fmt.Errorf("--%s must be %s, got %v", o.Flag, o.Accepted(), v)
	}
	if o.Set == nil {
		c.SetOwn(o.Flag, v, o.Default)
		return nil
	}
	return o.Set(c, v)
}

// Int is int option o's value in c (Config.Own), its default when unset.
func (o Option) Int(c Config) int { return c.OwnInt(o.Flag, o.Default.(int)) }

// Float is float64 option o's value in c, its default when unset.
func (o Option) Float(c Config) float64 { return c.OwnFloat(o.Flag, o.Default.(float64)) }

// String is string option o's value in c, its default when unset.
func (o Option) String(c Config) string { return c.OwnString(o.Flag, o.Default.(string)) }

// Bool is bool option o's value in c, its default when unset.
func (o Option) Bool(c Config) bool { return c.OwnBool(o.Flag, o.Default.(bool)) }

// check is Register's test of an option's declaration: a flag, a kind, a
// range for a number, a default it accepts.
func (o Option) check() error {
	switch o.Default.(type) {
	case int, float64:
		if o.Range == nil {
			return fmt.Errorf("option --%s is a number: declare its Range", o.Flag)
		}
	case string, bool:
		if o.Range != nil {
			return fmt.Errorf("option --%s is a %T: a Range bounds numbers only", o.Flag, o.Default)
		}
	default:
		return fmt.Errorf("option --%s has a default of type %T (want int, float64, string or bool)", o.Flag, o.Default)
	}
	if o.Flag == "" || strings.HasPrefix(o.Flag, "-") {
		return fmt.Errorf("option %q: Flag is the flag's name without dashes", o.Flag)
	}
	if err := o.Apply(&Config{}, o.Default); err != nil {
		return fmt.Errorf("option --%s refuses its own default: %v", o.Flag, err)
	}
	return nil
}

// Options lists the options of every registered model, each flag once,
// sorted by flag. It panics if two options share a flag with different
// defaults (a registration error).
func Options() []Option {
	seen := map[string]Option{}
	for _, e := range registry {
		for _, o := range e.Options {
			if p, ok := seen[o.Flag]; ok && p.Default != o.Default {
				panic(fmt.Sprintf("models: option --%s registered with defaults %v and %v", o.Flag, p.Default, o.Default))
			}
			seen[o.Flag] = o
		}
	}
	out := make([]Option, 0, len(seen))
	for _, o := range seen {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Flag < out[j].Flag })
	return out
}

// Owners lists the models that register option flag, sorted (none: no
// model's option).
func Owners(flag string) []string {
	return NamesWhere(func(e Entry) bool { return e.Owns(flag) })
}

// Strip returns c with every registered option that e does not register
// set back to its default, so a run of e stores none of another model's
// settings (compare --models gcn,gat --heads 2: the GCN cells keep one
// head).
func (e Entry) Strip(c Config) Config {
	for _, o := range Options() {
		if !e.Owns(o.Flag) {
			if err := o.Apply(&c, o.Default); err != nil {
				panic(fmt.Sprintf("models: --%s refuses its own default: %v", o.Flag, err))
			}
		}
	}
	return c
}

// Owns reports whether the entry registers option flag.
func (e Entry) Owns(flag string) bool {
	return slices.ContainsFunc(e.Options, func(o Option) bool { return o.Flag == flag })
}

// SetOwn stores a model's own option (Config.Own) by flag: v, or nothing
// when v equals def (the option's default), so a configuration that keeps
// the defaults is DefaultConfig's. It writes a new map: a Config is a
// value, and a copy of c keeps its own options.
func (c *Config) SetOwn(flag string, v, def any) {
	own := maps.Clone(c.Own)
	if v == def {
		delete(own, flag)
	} else {
		if own == nil {
			own = map[string]any{}
		}
		own[flag] = v
	}
	if len(own) == 0 {
		own = nil
	}
	c.Own = own
}

// OwnInt is the int option flag of c, def when unset (a stored
// configuration's JSON number is converted).
func (c Config) OwnInt(flag string, def int) int {
	switch v := c.Own[flag].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return def
}

// OwnFloat is the float64 option flag of c, def when unset.
func (c Config) OwnFloat(flag string, def float64) float64 {
	switch v := c.Own[flag].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return def
}

// OwnString is the string option flag of c, def when unset.
func (c Config) OwnString(flag, def string) string {
	if v, ok := c.Own[flag].(string); ok {
		return v
	}
	return def
}

// OwnBool is the bool option flag of c, def when unset.
func (c Config) OwnBool(flag string, def bool) bool {
	if v, ok := c.Own[flag].(bool); ok {
		return v
	}
	return def
}
