package memplan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ignn/ignn/data"
)

// FormatBytes prints 1.5 GB, 300 MB, 12 KB.
func FormatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.0f KB", float64(b)/(1<<10))
}

// ParseBytes reads "auto", a byte count, or a number with K, M, G or T
// (powers of 1024); "auto" is DefaultMaxMemory.
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	if s == "AUTO" || s == "" {
		return DefaultMaxMemory(), nil
	}
	mul := int64(1)
	for i, u := range []string{"K", "M", "G", "T"} {
		if strings.HasSuffix(s, u) || strings.HasSuffix(s, u+"B") {
			s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), u)
			mul = 1 << (10 * (i + 1))
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || v*float64(mul) > 1<<62 {
		return 0, fmt.Errorf("not a memory size (use e.g. 8G, 500M or auto)")
	}
	return int64(v * float64(mul)), nil
}

// DefaultMaxMemory is 75% of physical memory (MemTotal), or 4 GB when it
// cannot be read.
func DefaultMaxMemory() int64 {
	if total := data.MemInfo("MemTotal"); total > 0 {
		return total * 3 / 4
	}
	return 4 << 30
}
