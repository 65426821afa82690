package data

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// A converted edge list (`ignn data convert`) is a folder that later runs
// read instead of parsing text again: edges.npy, the E × 2 node ids as
// little-endian uint64 ('<u8', what NumPy's numpy.load reads), names.tsv
// ("id<TAB>name" for named nodes, when there are any) and graph.json, the
// manifest below. Reading memory-maps edges.npy (read only): the edges are
// not parsed or copied.

// EdgeBinFormat names the folder layout in graph.json.
const EdgeBinFormat = "ignn-edges/1"

// EdgeBinManifest is graph.json.
type EdgeBinManifest struct {
	Format string   `json:"format"`
	Source string   `json:"source"` // the edge list it was converted from
	Edges  int      `json:"edges"`
	Names  int      `json:"names,omitempty"`
	Notes  []string `json:"notes,omitempty"` // what parsing the source skipped
}

// IsEdgeBin reports whether path is a converted edge list (a folder with
// graph.json).
func IsEdgeBin(path string) bool {
	st, err := os.Stat(filepath.Join(path, "graph.json"))
	return err == nil && !st.IsDir()
}

// WriteEdgeBin writes el into the folder dir (created; its three files
// written atomically), recording source in the manifest.
func WriteEdgeBin(dir, source string, el *EdgeList) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	e := len(el.Edges)
	b := make([]byte, 0, 128+16*e)
	b = append(b, NPYHeader("<u8", e, 2)...)
	for _, x := range el.Edges {
		b = binary.LittleEndian.AppendUint64(b, x[0])
		b = binary.LittleEndian.AppendUint64(b, x[1])
	}
	if err := WriteFileAtomic(filepath.Join(dir, "edges.npy"), b); err != nil {
		return err
	}
	if len(el.Names) > 0 {
		ids := make([]uint64, 0, len(el.Names))
		for id := range el.Names {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		var sb strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&sb, "%d\t%s\n", id, el.Names[id])
		}
		if err := WriteFileAtomic(filepath.Join(dir, "names.tsv"), []byte(sb.String())); err != nil {
			return err
		}
	}
	m, _ := json.MarshalIndent(EdgeBinManifest{Format: EdgeBinFormat, Source: source, Edges: e, Names: len(el.Names), Notes: el.Notes}, "", "  ")
	return WriteFileAtomic(filepath.Join(dir, "graph.json"), append(m, '\n'))
}

// ReadEdgeBin reads the converted edge list in dir: its edges memory-mapped
// (read only) from edges.npy, its names and the notes of the original
// parse. The caller releases the mapping with EdgeList.Release when done
// with the edges (LoadUser does). Errors name the file and the problem.
func ReadEdgeBin(dir string) (*EdgeList, error) {
	mp := filepath.Join(dir, "graph.json")
	mb, err := os.ReadFile(mp)
	if err != nil {
		return nil, err
	}
	var m EdgeBinManifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, fmt.Errorf("data: %s: %v", mp, err)
	}
	if m.Format != EdgeBinFormat {
		return nil, fmt.Errorf("data: %s: format %q, want %q (convert the edge list again with this ignn)", mp, m.Format, EdgeBinFormat)
	}
	edges, release, err := mapEdges(filepath.Join(dir, "edges.npy"), m.Edges)
	if err != nil {
		return nil, err
	}
	el := &EdgeList{Edges: edges, Notes: m.Notes, Source: m.Source, release: release}
	if m.Names > 0 {
		np := filepath.Join(dir, "names.tsv")
		nb, err := os.ReadFile(np)
		if err != nil {
			el.Release()
			return nil, err
		}
		el.Names = Names{}
		for i, line := range strings.Split(strings.TrimSuffix(string(nb), "\n"), "\n") {
			id, name, ok := strings.Cut(line, "\t")
			v, perr := strconv.ParseUint(id, 10, 64)
			if !ok || perr != nil {
				el.Release()
				return nil, &LineError{np, i + 1, fmt.Sprintf("want \"id<TAB>name\", got %s", quoteToken(line))}
			}
			el.Names[v] = name
		}
		if len(el.Names) != m.Names {
			el.Release()
			return nil, fmt.Errorf("data: %s holds %d names, graph.json says %d", np, len(el.Names), m.Names)
		}
	}
	return el, nil
}

// mapEdges memory-maps the E × 2 '<u8' array at path (read only) as edges,
// checking its header against want edges, with the function that unmaps it.
func mapEdges(path string, want int) ([][2]uint64, func() error, error) {
	none := func() error { return nil }
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, 4096)
	n, _ := f.ReadAt(head, 0)
	descr, shape, off, err := ParseNPYHeader(head[:n])
	if err != nil {
		return nil, nil, fmt.Errorf("data: %s: %v", path, err)
	}
	if descr != "<u8" || len(shape) != 2 || shape[1] != 2 || shape[0] != want {
		return nil, nil, fmt.Errorf("data: %s: array %s %v, want '<u8' (%d, 2) as graph.json says", path, descr, shape, want)
	}
	if size := int64(off) + 16*int64(want); st.Size() != size {
		return nil, nil, fmt.Errorf("data: %s: %d bytes, want %d for %d edges (truncated?)", path, st.Size(), size, want)
	}
	if want == 0 {
		return nil, none, nil
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 { // a big-endian machine: decode
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		edges := make([][2]uint64, want)
		for k := range edges {
			p := off + 16*k
			edges[k] = [2]uint64{binary.LittleEndian.Uint64(b[p:]), binary.LittleEndian.Uint64(b[p+8:])}
		}
		return edges, none, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("data: %s: mmap: %v", path, err)
	}
	// The header is padded to 64 bytes, so the data is 8-byte aligned.
	return unsafe.Slice((*[2]uint64)(unsafe.Pointer(&b[off])), want), func() error { return syscall.Munmap(b) }, nil
}
