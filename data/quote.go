package data

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxQuote is how many bytes of a token a message shows, counted as
// quoted (an escaped control byte counts 4).
const maxQuote = 64

// quoteToken quotes s for a message, as %q does: all of it when it is
// short, else its first 64 bytes (cut at a character boundary) and then
// its length, `"abc…"… (523288 bytes)`, so that one bad token cannot
// flood the terminal. Every reader quotes a token through it.
func quoteToken(s string) string {
	n := 0
	for i := 0; i < len(s); {
		_, w := utf8.DecodeRuneInString(s[i:])
		if n += len(strconv.Quote(s[i:i+w])) - 2; n > maxQuote {
			return strconv.Quote(s[:i]) + fmt.Sprintf("… (%d bytes)", len(s))
		}
		i += w
	}
	return strconv.Quote(s)
}

// shortToken is s itself when it is at most 64 bytes, else quoteToken(s):
// for messages that name a node or a column without quotes.
func shortToken(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	return quoteToken(s)
}

// maxListed is how many items a message lists.
const maxListed = 8

// listFirst joins item(0) … item(n-1) with sep, the first maxListed only,
// then "… (n in all)".
func listFirst(n int, sep string, item func(i int) string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		if i == maxListed {
			fmt.Fprintf(&b, "… (%d in all)", n)
			break
		}
		b.WriteString(item(i))
	}
	return b.String()
}

// short is the name of id for a message: Of(id), shortened by shortToken.
func (n Names) short(id uint64) string { return shortToken(n.Of(id)) }
