package grid

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Failure is a cell that did not finish, with the reason.
type Failure struct {
	Job   Job    `json:"job"`
	Error string `json:"error"`
}

func (cc CompareConfig) failurePath(j Job) string {
	return filepath.Join(cc.Out, "cells", j.Key()+".failed.json")
}

func (cc CompareConfig) loadFailure(j Job) (Failure, bool) {
	b, err := os.ReadFile(cc.failurePath(j))
	if err != nil {
		return Failure{}, false
	}
	var f Failure
	if json.Unmarshal(b, &f) != nil {
		return Failure{}, false
	}
	return f, true
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}
