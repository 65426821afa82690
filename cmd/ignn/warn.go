package main

import (
	"fmt"
	"io"
	"regexp"
	"sync"
)

// warnings prints "warning: …" lines on stderr, each kind once: a message
// that differs from an earlier one only in its numbers (a collapse's
// cosine spread at every evaluation, the same cleaning in every cell) is
// not printed again. Warnings are kept under --quiet.
type warnings struct {
	mu   sync.Mutex
	w    io.Writer
	kind string // "warning", or "note" for notes printed once the same way
	seen map[string]bool
}

// numbers are what two warnings of one kind differ in.
var numbers = regexp.MustCompile(`[0-9][0-9.e+\-]*`)

func newWarnings(w io.Writer, kind string) *warnings {
	return &warnings{w: w, kind: kind, seen: map[string]bool{}}
}

// print writes msg (then suffix) unless a warning of its kind was
// printed; before, when not nil, runs just before the line is written.
func (ws *warnings) print(msg, suffix string, before func()) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	like := numbers.ReplaceAllString(msg, "#")
	if ws.seen[like] {
		return
	}
	ws.seen[like] = true
	if before != nil {
		before()
	}
	fmt.Fprintf(ws.w, "%s: %s%s\n", ws.kind, msg, suffix)
}
