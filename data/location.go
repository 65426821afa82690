package data

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DataDirs lists where the raw files of the built-in datasets are looked
// for, in order: the explicit directory (flag), $IGNN_DATA, ../shared/data
// beside the working directory or one of its parents (the layout CI uses), and
// the user cache directory that `ignn data fetch` writes to.
func DataDirs(explicit string) []string {
	var out []string
	if explicit != "" {
		return []string{explicit}
	}
	if env := os.Getenv("IGNN_DATA"); env != "" {
		out = append(out, env)
	}
	if wd, err := os.Getwd(); err == nil {
		for d, i := wd, 0; i < 4; d, i = filepath.Dir(d), i+1 {
			out = append(out, filepath.Join(filepath.Dir(d), "shared", "data"))
		}
	}
	if c, err := CacheDir(); err == nil {
		out = append(out, c)
	}
	return out
}

// CacheDir is where `ignn data fetch` stores downloads.
func CacheDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "ignn"), nil
}

// FindDataDir returns the first directory holding dataset's marker file, or
// an error naming every place looked in and how to fetch the files.
func FindDataDir(explicit, dataset string) (string, error) {
	marker := map[string]string{
		"email":   filepath.Join("email", "email.txt"),
		"protein": filepath.Join("protein", "PROTEINS_full_A.txt"),
	}[dataset]
	dirs := DataDirs(explicit)
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("data: %s: %s not found (looked in %s); run `ignn data fetch %s` or pass --data-dir / set IGNN_DATA",
		dataset, marker, strings.Join(dirs, ", "), dataset)
}
