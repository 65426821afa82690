package data

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spaolacci/murmur3"
)

// Node names. A node token that is a non-negative integer is that id, as
// always (the hash keys of the paper's Algorithm 1 are unchanged). Any
// other token — alice, @handle, urn:li:person:7, a UUID — is a name: its id
// is the first 64 bits of MurmurHash3 x64-128 (seed 0) of the name's UTF-8
// bytes, with the top bit set, and the name is kept beside the id in the
// dataset and in every output. Tokens that look like numbers but are not
// non-negative integers ("-1", "1.5") are still errors: they are far more
// often a wrong column than a name.

// NameID is the id of a named node.
func NameID(name string) uint64 {
	h, _ := murmur3.Sum128([]byte(name))
	return h | 1<<63
}

// Names maps the ids of named nodes to their names (nil: no named node).
type Names map[uint64]string

// parseNode reads a node token: an integer id, or a name recorded in
// names (which may be nil, then names are refused).
func parseNode(s string, names Names) (uint64, error) {
	if v, err := parseID(s, "node id"); err == nil || names == nil || numberLike(s) {
		return v, err
	}
	id := NameID(s)
	if prev, ok := names[id]; ok && prev != s {
		return 0, fmt.Errorf("node names %s and %s have the same id %d (a MurmurHash3 collision): rename one", quoteToken(prev), quoteToken(s), id)
	}
	names[id] = s
	return id, nil
}

// numberLike reports whether s is written as a number: a digit, or a sign
// or point and then a digit, first ("-1", "2.5", "+3", ".5", "1e5").
// Words that ParseFloat would also take (NaN, Inf, infinity) are names.
func numberLike(s string) bool {
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	switch {
	case digit(0):
		return true
	case len(s) > 1 && (s[0] == '-' || s[0] == '+'):
		return digit(1) || s[1] == '.' && digit(2)
	case s != "" && s[0] == '.':
		return digit(1)
	}
	return false
}

// Of returns the name of id: its name when it has one, else the decimal id.
func (n Names) Of(id uint64) string {
	if name, ok := n[id]; ok {
		return name
	}
	return strconv.FormatUint(id, 10)
}

// NamesOf returns the names of ds's named nodes by id (nil when no node is
// named).
func NamesOf(ds *Dataset) Names {
	var n Names
	for _, g := range ds.Graphs {
		if g.Names == nil {
			continue
		}
		if n == nil {
			n = Names{}
		}
		for i := range g.N {
			id := g.ID(i)
			if s := g.Names[i]; s != strconv.FormatUint(id, 10) {
				n[id] = s
			}
		}
	}
	return n
}

// ParseNode reads a node given by a user (a query, a row of a node list):
// an integer id, or a name (its NameID).
func ParseNode(s string) (uint64, error) {
	return parseNode(s, Names{})
}

// Near returns up to k names of n close to s, for a "did you mean"
// message: those equal to s but for case first, then those at the
// smallest edit distance, at most 2 (or a third of s's length, if more),
// each group in lexical order.
func (n Names) Near(s string, k int) []string {
	var same []string
	byDist := map[int][]string{}
	limit := max(2, len([]rune(s))/3)
	for _, name := range n {
		if strings.EqualFold(name, s) {
			same = append(same, name)
		} else if d := editDistance(strings.ToLower(name), strings.ToLower(s), limit); d <= limit {
			byDist[d] = append(byDist[d], name)
		}
	}
	slices.Sort(same)
	out := same
	for d := 1; d <= limit && len(out) < k; d++ {
		slices.Sort(byDist[d])
		out = append(out, byDist[d]...)
	}
	return out[:min(k, len(out))]
}

// editDistance is the Levenshtein distance of a and b in runes, or
// limit+1 once it is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
