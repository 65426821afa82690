package data

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, so readers and crashes see either
// the old file or the new one, never a torn write. The file has mode 0644.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic is WriteFileAtomic for content that write streams (a large
// file need not be held in memory): write's error, or the file system's,
// leaves path as it was.
func WriteAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("data: writing %s: %w", path, err)
	}
	tmp := f.Name()
	// CreateTemp makes 0600 files; results are for sharing.
	if err = f.Chmod(0o644); err == nil {
		bw := bufio.NewWriterSize(f, 1<<20)
		if err = write(bw); err == nil {
			err = bw.Flush()
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("data: writing %s: %w", path, err)
	}
	return nil
}
