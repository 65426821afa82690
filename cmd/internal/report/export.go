package report

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/ignn/ignn/data"
	"math"
	"strconv"
)

// NPY encodes a rows×cols float32 matrix in NumPy's .npy format version
// 1.0 (little-endian '<f4', C order); numpy.load reads it.
func NPY(rows, cols int, v []float64) []byte {
	b := bytes.NewBuffer(data.NPYHeader("<f4", rows, cols))
	buf := make([]byte, 4)
	for _, x := range v {
		binary.LittleEndian.PutUint32(buf, math.Float32bits(float32(x)))
		b.Write(buf)
	}
	return b.Bytes()
}

// TSV encodes one line per node: its key (the node's name, or its id), then
// its vector (float32 precision, shortest round-trip form), tab separated.
func TSV(keys []string, cols int, v []float64) []byte {
	var b bytes.Buffer
	for i, key := range keys {
		b.WriteString(key)
		for k := 0; k < cols; k++ {
			b.WriteByte('\t')
			b.WriteString(strconv.FormatFloat(float64(float32(v[i*cols+k])), 'g', -1, 32))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ProjectorRow is one node's metadata for TensorBoard's Embedding
// Projector: its name, label ("" when the data has none), degree and
// connected component (graph#component).
type ProjectorRow struct {
	Name, Label, Component string
	Degree                 int
}

// Projector returns the files of a folder TensorBoard's Embedding Projector
// opens: vectors.tsv (one vector per line, no key), metadata.tsv (a header
// line, then name, label, degree, component per node, in the same order)
// and projector_config.pbtxt naming the two.
func Projector(rows []ProjectorRow, cols int, v []float64) map[string][]byte {
	var vec, meta bytes.Buffer
	meta.WriteString("name\tlabel\tdegree\tcomponent\n")
	for i, r := range rows {
		for k := 0; k < cols; k++ {
			if k > 0 {
				vec.WriteByte('\t')
			}
			vec.WriteString(strconv.FormatFloat(float64(float32(v[i*cols+k])), 'g', -1, 32))
		}
		vec.WriteByte('\n')
		fmt.Fprintf(&meta, "%s\t%s\t%d\t%s\n", r.Name, r.Label, r.Degree, r.Component)
	}
	cfg := "embeddings {\n  tensor_name: \"ignn\"\n  tensor_path: \"vectors.tsv\"\n  metadata_path: \"metadata.tsv\"\n}\n"
	return map[string][]byte{"vectors.tsv": vec.Bytes(), "metadata.tsv": meta.Bytes(), "projector_config.pbtxt": []byte(cfg)}
}
