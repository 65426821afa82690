package report

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NPY encodes a rows×cols float32 matrix in NumPy's .npy format version
// 1.0 (little-endian '<f4', C order); numpy.load reads it.
func NPY(rows, cols int, v []float64) []byte {
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", rows, cols)
	// magic(6) + version(2) + header length(2) + header, padded with spaces
	// and a newline to a multiple of 64 bytes.
	total := 10 + len(header) + 1
	pad := (64 - total%64) % 64
	header += strings.Repeat(" ", pad) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY")
	b.Write([]byte{1, 0})
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	buf := make([]byte, 4)
	for _, x := range v {
		binary.LittleEndian.PutUint32(buf, math.Float32bits(float32(x)))
		b.Write(buf)
	}
	return b.Bytes()
}

// TSV encodes one line per node: its id, then its vector (float32 precision,
// shortest round-trip form), tab separated.
func TSV(ids []uint64, cols int, v []float64) []byte {
	var b bytes.Buffer
	for i, id := range ids {
		b.WriteString(strconv.FormatUint(id, 10))
		for k := 0; k < cols; k++ {
			b.WriteByte('\t')
			b.WriteString(strconv.FormatFloat(float64(float32(v[i*cols+k])), 'g', -1, 32))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}
