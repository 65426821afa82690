package data

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// The compressions every input file may use, recognised by their first
// bytes (not by the file's name): SNAP and KONECT publish .gz and .bz2,
// newer dumps .zst.
var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicBzip2 = []byte("BZh")
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompressed wraps r in the decompressor its first bytes call for, or
// returns it as it is; format names what was found ("" for plain). The
// stream is read as it is consumed: no temporary copy. close releases the
// decompressor.
func decompressed(r io.Reader) (out io.Reader, format string, close func(), err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, magicGzip):
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, "gzip", nil, err
		}
		z.Multistream(true)
		return z, "gzip", func() { z.Close() }, nil
	case bytes.HasPrefix(head, magicBzip2):
		return bzip2.NewReader(br), "bzip2", func() {}, nil
	case bytes.HasPrefix(head, magicZstd):
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, "zstd", nil, err
		}
		return z, "zstd", z.Close, nil
	}
	return br, "", func() {}, nil
}

// textCheck refuses content that is not text before any of it is parsed:
// a NUL byte in the first 4 KiB (after decompression) means a binary file
// of a format ignn does not read.
type textCheck struct {
	r       *bufio.Reader
	s       *namedStream
	name    string
	checked bool
	err     error // sticky: every later read fails the same way
}

// streamErr is the input's own failure (binary content, a damaged
// stream), if any: a parser that stumbled on the partial line before it
// reports this instead.
func (t *textCheck) streamErr() error {
	if t.err != nil {
		return t.err
	}
	return t.s.err
}

func (t *textCheck) Read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	if !t.checked {
		t.checked = true
		head, _ := t.r.Peek(4096)
		if i := bytes.IndexByte(head, 0); i >= 0 {
			t.err = &InputError{fmt.Sprintf("data: %s: binary content (a NUL byte at offset %d): not a text edge list; ignn reads text (whitespace, comma, tab or semicolon separated), Matrix Market, and those compressed with gzip, bzip2 or zstd", t.name, i)}
			return 0, t.err
		}
	}
	return t.r.Read(p)
}

// preferStreamError returns r's own failure in place of err when r had
// one (a truncated stream's last, partial line fails to parse first).
func preferStreamError(r io.Reader, err error) error {
	if s, ok := r.(interface{ streamErr() error }); ok && err != nil {
		if se := s.streamErr(); se != nil {
			return se
		}
	}
	return err
}

// InputError is a problem with a whole input file (its compression, its
// binary content), already naming the file: parsers pass it on as it is.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// openInput opens path for parsing: decompressed by content, checked to be
// text. Errors name the file.
func openInput(path string) (io.Reader, func(), error) {
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	r, format, closeZ, err := decompressed(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("data: %s: a %s header that does not open: %v", path, format, err)
	}
	ns := &namedStream{r: r, name: path, format: format}
	tc := &textCheck{r: bufio.NewReaderSize(ns, 64<<10), s: ns, name: path}
	return tc, func() { closeZ(); f.Close() }, nil
}

// namedStream adds the file and its compression to a decompressor's
// errors (a truncated .gz says "unexpected EOF" alone) and counts the
// decompressed bytes so the error can say where.
type namedStream struct {
	r      io.Reader
	name   string
	format string
	n      int64
	err    error // the stream's failure, kept for preferStreamError
}

func (s *namedStream) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if err != nil && err != io.EOF && s.format != "" {
		err = &InputError{fmt.Sprintf("data: %s: the %s stream is damaged or truncated after %d decompressed bytes (%v)", s.name, s.format, s.n, err)}
		s.err = err
	}
	return n, err
}
