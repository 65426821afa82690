package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/ignn/ignn/data"
)

// startCPUProfile starts a CPU profile into path ("" = none) and returns
// the function that stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeHeapProfile collects garbage, so the profile's in-use figures are
// the live heap of this moment, and writes it to path atomically.
func writeHeapProfile(path string) error {
	runtime.GC()
	var b bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		return err
	}
	return data.WriteFileAtomic(path, b.Bytes())
}
