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
	// work and worked weigh the units this process runs (one each, or as
	// weigh sets): the ETA extrapolates the work this process did, so
	// units that cost more (capacity cells, P-GNN) and units done before a
	// resume count as what they are.
	work, worked float64
	weighted     bool
}

// weigh sets the total work of the units this process will run; add then
// takes each one's.
func (p *progress) weigh(work float64) { p.work, p.weighted = work, true }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newProgress(w io.Writer, what string, total, done int) *progress {
	p := &progress{w: w, what: what, total: total, done: done, start: time.Now(), work: float64(total - done)}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		p.bar.Set(done)
	}
	return p
}

// add counts n more finished units of work w (weigh; without it, one a
// unit); plain output prints at most one line every 5 seconds, and always
// the last one.
func (p *progress) add(n int, w float64) {
	p.done += n
	if !p.weighted {
		w = float64(n)
	}
	p.worked += w
	el := time.Since(p.start)
	eta := "?"
	if p.worked > 0 {
		eta = (time.Duration(float64(el) * max(0, p.work-p.worked) / p.worked)).Round(time.Second).String()
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s (ETA %s)", p.what, eta))
		p.bar.Add(n)
		return
	}
	if time.Since(p.shown) < 5*time.Second && p.done < p.total {
		return
	}
	p.shown = time.Now()
	fmt.Fprintf(p.w, "%s %d/%d (%d%%), %s elapsed, ETA %s\n", p.what, p.done, p.total, 100*p.done/max(1, p.total), el.Round(time.Second), eta)
}

// live reports whether a bar is drawn on a terminal line (p may be nil).
func (p *progress) live() bool { return p != nil && p.bar != nil }

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// epochClock times train's epochs for its ETA. An epoch that evaluates
// costs a step and an evaluation, the others a step: extrapolating the
// first epoch (which evaluates) over every epoch made a 300-step
// whole-graph run of 20 s announce "ETA 8m37s". So the ETA adds the steps
// and the evaluations still to come, each at its own measured cost.
type epochClock struct {
	last         time.Time
	step, eval   time.Duration // summed over the timed epochs
	steps, evals int
}

// start marks the beginning of the first epoch.
func (k *epochClock) start(t time.Time) { k.last = t }

// tick records an epoch that ended at t, evaluated or not.
func (k *epochClock) tick(t time.Time, evaluated bool) {
	d := t.Sub(k.last)
	k.last = t
	if evaluated {
		k.eval += d
		k.evals++
	} else {
		k.step += d
		k.steps++
	}
}

// eta is the time left after epoch of epochs, evaluated after epochs 0,
// every, 2·every, … and the last (engine.FitConfig). ok is false while it
// cannot be told: no epoch without an evaluation timed yet, and some to come.
func (k *epochClock) eta(epoch, epochs, every int) (left time.Duration, ok bool) {
	every = max(every, 1)
	evals := (epochs-1)/every - epoch/every // multiples of every in (epoch, epochs−1]
	if epochs-1 > epoch && (epochs-1)%every != 0 {
		evals++ // the last epoch
	}
	steps := max(0, epochs-1-epoch-evals)
	switch {
	case k.steps > 0:
		s := k.step / time.Duration(k.steps)
		e := s
		if k.evals > 0 {
			e = max(s, k.eval/time.Duration(k.evals))
		}
		return time.Duration(steps)*s + time.Duration(evals)*e, true
	case steps == 0 && k.evals > 0:
		return time.Duration(evals) * (k.eval / time.Duration(k.evals)), true
	}
	return 0, false
}
