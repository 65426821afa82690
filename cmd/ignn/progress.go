package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports a long phase on stderr: a live bar on a terminal, plain
// lines ("cells 3/48 (6%), 12s elapsed, ETA 3m10s") otherwise, so logs and
// CI output hold no control characters.
type progress struct {
	bar          *progressbar.ProgressBar
	w            io.Writer
	what         string
	total, done  int
	start, shown time.Time
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newProgress(w io.Writer, what string, total, done int) *progress {
	p := &progress{w: w, what: what, total: total, done: done, start: time.Now()}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		p.bar.Set(done)
	}
	return p
}

// add counts n more finished units; plain output prints at most one line
// every 5 seconds, and always the last one.
func (p *progress) add(n int) {
	p.done += n
	if p.bar != nil {
		p.bar.Add(n)
		return
	}
	if time.Since(p.shown) < 5*time.Second && p.done < p.total {
		return
	}
	p.shown = time.Now()
	el := time.Since(p.start)
	eta := "?"
	if p.done > 0 {
		eta = (time.Duration(float64(el) * float64(p.total-p.done) / float64(p.done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "%s %d/%d (%d%%), %s elapsed, ETA %s\n", p.what, p.done, p.total, 100*p.done/max(1, p.total), el.Round(time.Second), eta)
}

// live reports whether a bar is drawn on a terminal line (p may be nil).
func (p *progress) live() bool { return p != nil && p.bar != nil }

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
