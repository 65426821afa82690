package data

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
)

// NPZArray is one array of an .npz archive (NumPy's numpy.savez layout: a
// zip of .npy files, stored uncompressed): Name (the entry is Name +
// ".npy"), Shape, and Data, stored as '<f4' when F32 (exact for values that
// are float32) or '<f8' — or, when U16 is not nil, U16 stored as '<u2'
// (hop counts; Data is then unused).
type NPZArray struct {
	Name  string
	Shape []int
	Data  []float64
	F32   bool
	U16   []uint16
}

// WriteNPZ writes arrays to path atomically (WriteAtomic), streaming each
// array, and returns the file's SHA-256 (hex), which a manifest can record
// to detect a torn or swapped archive. numpy.load(path) reads it.
func WriteNPZ(path string, arrays []NPZArray) (string, error) {
	h := sha256.New()
	err := WriteAtomic(path, func(w io.Writer) error {
		z := zip.NewWriter(io.MultiWriter(w, h))
		for _, a := range arrays {
			e, err := z.CreateHeader(&zip.FileHeader{Name: a.Name + ".npy", Method: zip.Store})
			if err != nil {
				return err
			}
			descr := "<f8"
			if a.F32 {
				descr = "<f4"
			}
			if a.U16 != nil {
				descr = "<u2"
			}
			if _, err := e.Write(NPYHeader(descr, a.Shape...)); err != nil {
				return err
			}
			buf := make([]byte, 0, 1<<16)
			if a.U16 != nil {
				for i := 0; i < len(a.U16); i += 1 << 15 {
					buf = buf[:0]
					for _, v := range a.U16[i:min(i+1<<15, len(a.U16))] {
						buf = binary.LittleEndian.AppendUint16(buf, v)
					}
					if _, err := e.Write(buf); err != nil {
						return err
					}
				}
				continue
			}
			for i, x := range a.Data {
				if a.F32 {
					buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(x)))
				} else {
					buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
				}
				if len(buf) >= 1<<16-8 || i == len(a.Data)-1 {
					if _, err := e.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
			}
		}
		return z.Close()
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// ReadNPZ reads the float and '<u2' arrays of the archive at path by name, checking
// the file's SHA-256 against sum when sum is not "". Errors name the file,
// the entry and the problem.
func ReadNPZ(path, sum string) (map[string]NPZArray, error) {
	if sum != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("data: %s: %w", path, err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != sum {
			return nil, fmt.Errorf("data: %s is corrupted: its SHA-256 %.12s… is not the recorded %.12s…", path, got, sum)
		}
	}
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	defer z.Close()
	out := map[string]NPZArray{}
	for _, e := range z.File {
		r, err := e.Open()
		if err != nil {
			return nil, fmt.Errorf("data: %s: %s: %w", path, e.Name, err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("data: %s: %s: %w", path, e.Name, err)
		}
		descr, shape, off, err := ParseNPYHeader(b)
		if err != nil {
			return nil, fmt.Errorf("data: %s: %s: %v", path, e.Name, err)
		}
		n := 1
		for _, s := range shape {
			n *= s
		}
		a := NPZArray{Name: e.Name[:len(e.Name)-len(".npy")], Shape: shape}
		if descr == "<u2" {
			if len(b)-off != 2*n {
				return nil, fmt.Errorf("data: %s: %s: %d data bytes for shape %v", path, e.Name, len(b)-off, shape)
			}
			a.U16 = make([]uint16, n)
			for i := range a.U16 {
				a.U16[i] = binary.LittleEndian.Uint16(b[off+2*i:])
			}
			out[a.Name] = a
			continue
		}
		a.Data, a.F32 = make([]float64, n), descr == "<f4"
		size := 8
		if a.F32 {
			size = 4
		} else if descr != "<f8" {
			return nil, fmt.Errorf("data: %s: %s: dtype %s (want <f4, <f8 or <u2)", path, e.Name, descr)
		}
		if len(b)-off != n*size {
			return nil, fmt.Errorf("data: %s: %s: %d data bytes for shape %v", path, e.Name, len(b)-off, shape)
		}
		for i := range a.Data {
			if a.F32 {
				a.Data[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*i:])))
			} else {
				a.Data[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[off+8*i:]))
			}
		}
		out[a.Name] = a
	}
	return out, nil
}
