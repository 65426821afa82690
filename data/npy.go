package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// NumPy's .npy format, version 1.0: the magic "\x93NUMPY", the version,
// a little-endian uint16 header length, a Python dict literal header padded
// with spaces and a newline to a multiple of 64 bytes, then the data in C
// order. numpy.load reads what NPYHeader writes.

// NPYHeader returns the header of a C-order array of the given dtype
// ('<u8', '<f4', …) and shape.
func NPYHeader(descr string, shape ...int) []byte {
	dims := make([]string, len(shape))
	for i, s := range shape {
		dims[i] = strconv.Itoa(s)
	}
	sh := strings.Join(dims, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, sh)
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	return b.Bytes()
}

var npyDict = regexp.MustCompile(`^\{'descr': '([^']+)', 'fortran_order': (True|False), 'shape': \(([0-9, ]*)\), \}\s*$`)

// ParseNPYHeader reads the header at the start of b: the dtype, the shape
// and the offset of the data. It accepts version 1.0 in C order, as
// NPYHeader writes and numpy.save writes for these arrays.
func ParseNPYHeader(b []byte) (descr string, shape []int, offset int, err error) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return "", nil, 0, fmt.Errorf("not a .npy file (no \\x93NUMPY magic)")
	}
	if b[6] != 1 {
		return "", nil, 0, fmt.Errorf(".npy version %d.%d (only 1.0 is read)", b[6], b[7])
	}
	n := int(binary.LittleEndian.Uint16(b[8:10]))
	if len(b) < 10+n {
		return "", nil, 0, fmt.Errorf("truncated .npy header (%d of %d bytes)", len(b)-10, n)
	}
	m := npyDict.FindStringSubmatch(string(b[10 : 10+n]))
	if m == nil {
		return "", nil, 0, fmt.Errorf(".npy header %q is not a C-order array header", shortToken(string(b[10:10+n])))
	}
	if m[2] == "True" {
		return "", nil, 0, fmt.Errorf(".npy array in Fortran order (only C order is read)")
	}
	for _, f := range strings.Split(m[3], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return "", nil, 0, fmt.Errorf(".npy shape %q", m[3])
		}
		shape = append(shape, v)
	}
	return m[1], shape, 10 + n, nil
}
