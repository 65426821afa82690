package data

import (
	"bufio"
	"fmt"
	"os"
)

// MemInfo is the field key of /proc/meminfo ("MemTotal", "MemAvailable")
// in bytes, or −1 where it cannot be read (another system, no such field).
func MemInfo(key string) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), key+": %d kB", &kb); err == nil {
			return kb * 1024
		}
	}
	return -1
}
