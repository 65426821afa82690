// Command ignn trains and compares Isometric Graph Neural Networks.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first interrupt stops a run at its next epoch boundary
		// (saving its checkpoint); a run still preparing a large graph
		// gets there only after minutes, so a second interrupt takes the
		// signal's default action and ends the process at once.
		<-sig
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		fmt.Fprintln(os.Stderr, "ignn: interrupted: stopping at the next epoch boundary (interrupt again to quit now)")
		cancel()
	}()
	if err := execute(ctx, os.Args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(exitCode(err))
	}
}

// errorLine is the line a failed command ends with: the error after one
// "ignn: ", whether or not the error's own text starts with it.
func errorLine(err error) string {
	return "ignn: " + strings.TrimPrefix(err.Error(), "ignn: ")
}
