package run

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Provenance records what produced a result: the build (module version,
// VCS revision and whether the tree was modified), the toolchain and the
// machine, and when the run started.
type Provenance struct {
	Version    string `json:"version"`
	Revision   string `json:"revision"`
	Modified   bool   `json:"modified"`
	GoVersion  string `json:"go_version"`
	OSArch     string `json:"os_arch"`
	CPU        string `json:"cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Host       string `json:"host"`
	Start      string `json:"start_time"`
}

// CurrentProvenance describes this process, starting now.
func CurrentProvenance() Provenance {
	p := Provenance{Version: "unknown", Revision: "unknown", GoVersion: runtime.Version(),
		OSArch: runtime.GOOS + "/" + runtime.GOARCH, CPU: cpuModel(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Start: time.Now().UTC().Format(time.RFC3339)}
	p.Host, _ = os.Hostname()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			p.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Revision = s.Value
			case "vcs.modified":
				p.Modified = s.Value == "true"
			}
		}
	}
	return p
}

// Build names the build: a 12-digit revision, "+modified" when the tree
// had uncommitted changes.
func (p Provenance) Build() string {
	r := p.Revision
	if len(r) > 12 {
		r = r[:12]
	}
	if p.Modified {
		r += "+modified"
	}
	return r
}

// Machine names the machine: CPU model, GOMAXPROCS, host.
func (p Provenance) Machine() string {
	return fmt.Sprintf("%s, GOMAXPROCS %d, host %s", p.CPU, p.GOMAXPROCS, p.Host)
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
