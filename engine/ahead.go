package engine

// Prefetch makes the mini-batch steps and the chunked inference prepare
// their next batch or chunk (its draws, subgraph and input rows: the
// mostly serial part) on another goroutine while the current one runs: the
// same work in the same order, so the same numbers, with that work off the
// critical path on two cores (issue 37). Tests turn it off to compare.
var Prefetch = true

// Ahead is work begun on another goroutine (Go); Wait waits for its
// result.
type Ahead[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// Go begins f on another goroutine.
func Go[T any](f func() (T, error)) *Ahead[T] {
	a := &Ahead[T]{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.v, a.err = f()
	}()
	return a
}

// Wait returns f's result once it has returned.
func (a *Ahead[T]) Wait() (T, error) {
	<-a.done
	return a.v, a.err
}
