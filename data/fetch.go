package data

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// remote is one downloadable archive and the files it yields.
type remote struct {
	URL   string
	Kind  string            // "gz" (one file) or "zip"
	Files map[string]string // archive entry ("" for gz) → destination path
}

// Sources lists where `ignn data fetch` downloads each dataset: SNAP for
// Email, TU Dortmund's TUDataset mirror for PROTEINS_full.
var Sources = map[string][]remote{
	"email": {
		{URL: "https://snap.stanford.edu/data/email-Eu-core.txt.gz", Kind: "gz", Files: map[string]string{"": "email/email.txt"}},
		{URL: "https://snap.stanford.edu/data/email-Eu-core-department-labels.txt.gz", Kind: "gz", Files: map[string]string{"": "email/email_labels.txt"}},
	},
	"protein": {
		{URL: "https://www.chrsmrrs.com/graphkerneldatasets/PROTEINS_full.zip", Kind: "zip", Files: map[string]string{
			"PROTEINS_full/PROTEINS_full_A.txt":               "protein/PROTEINS_full_A.txt",
			"PROTEINS_full/PROTEINS_full_graph_indicator.txt": "protein/PROTEINS_full_graph_indicator.txt",
			"PROTEINS_full/PROTEINS_full_graph_labels.txt":    "protein/PROTEINS_full_graph_labels.txt",
			"PROTEINS_full/PROTEINS_full_node_labels.txt":     "protein/PROTEINS_full_node_labels.txt",
			"PROTEINS_full/PROTEINS_full_node_attributes.txt": "protein/PROTEINS_full_node_attributes.txt",
		}},
	},
}

// SHA256 are the digests of the files ignn was validated on (the exact
// inputs of the P-GNN reference code), after line-ending normalisation
// (CR removed, trailing blanks and blank final lines dropped, LF endings).
var SHA256 = map[string]string{
	"email/email.txt":                           "23e0ca0bce21a053025e78f7e9691ac9210ae806a0689bd5edff3c3bac572d4c",
	"email/email_labels.txt":                    "91a089f21ee35eb224066456fa5322c8ad57c0f07b2da7a58a3220c72b5d54b5",
	"protein/PROTEINS_full_A.txt":               "4c4b33e272fc95cac6d27ed6d5d12b9a852c8610e91fff59f8f0dbdd5a20df67",
	"protein/PROTEINS_full_graph_indicator.txt": "8d4ff1e852a5c28561e9bffb44cf9490bc552b13a3b6156dd12dc7f44e9afc4a",
	"protein/PROTEINS_full_graph_labels.txt":    "c0ef9810c440775252872318d0c8adc385588e14bc4c47a2c34aa96ee3c7cdcd",
	"protein/PROTEINS_full_node_labels.txt":     "f758e8ad3d6e3c026b50833d75f6f90735b94eb3345e4243707f495ca8afea8d",
	"protein/PROTEINS_full_node_attributes.txt": "79f9898318a21ce9592b8b7e43cf799745098c464838c54cecade3420108f06f",
}

// normalise removes CRs and trailing blanks, drops blank final lines and
// ends every line with LF.
func normalise(b []byte) []byte {
	lines := strings.Split(strings.ReplaceAll(string(b), "\r", ""), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	var out bytes.Buffer
	for _, l := range lines {
		out.WriteString(strings.TrimRight(l, " \t"))
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// FetchOptions adjusts Fetch.
type FetchOptions struct {
	// Mirror, when set, replaces each URL's scheme and host by this base
	// ("http://127.0.0.1:8080"): the file name is kept.
	Mirror string
	Client *http.Client
	Log    io.Writer
}

// Fetch downloads dataset's files into dir, verifies each file's SHA-256
// and writes it atomically; nothing is written for a file that fails.
func Fetch(ctx context.Context, dataset, dir string, opt FetchOptions) error {
	srcs, ok := Sources[dataset]
	if !ok {
		return fmt.Errorf("data: nothing to fetch for %q (valid: email, protein; communities is generated)", dataset)
	}
	client := opt.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Minute}
	}
	for _, src := range srcs {
		url := src.URL
		if opt.Mirror != "" {
			url = strings.TrimRight(opt.Mirror, "/") + "/" + path.Base(src.URL)
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "downloading %s\n", url)
		}
		body, err := download(ctx, client, url)
		if err != nil {
			return err
		}
		files := map[string][]byte{}
		switch src.Kind {
		case "gz":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				return fmt.Errorf("data: %s: not a gzip file: %w", url, err)
			}
			b, err := io.ReadAll(zr)
			if err != nil {
				return fmt.Errorf("data: %s: %w", url, err)
			}
			files[src.Files[""]] = b
		case "zip":
			zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
			if err != nil {
				return fmt.Errorf("data: %s: not a zip file: %w", url, err)
			}
			for _, f := range zr.File {
				dest, ok := src.Files[f.Name]
				if !ok {
					continue
				}
				rc, err := f.Open()
				if err != nil {
					return fmt.Errorf("data: %s: %s: %w", url, f.Name, err)
				}
				b, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					return fmt.Errorf("data: %s: %s: %w", url, f.Name, err)
				}
				files[dest] = b
			}
			for entry, dest := range src.Files {
				if _, ok := files[dest]; !ok {
					return fmt.Errorf("data: %s: archive lacks %s", url, entry)
				}
			}
		}
		for dest, b := range files {
			b = normalise(b)
			sum := sha256.Sum256(b)
			if got := hex.EncodeToString(sum[:]); got != SHA256[dest] {
				return fmt.Errorf("data: %s from %s: sha256 %s, expected %s; not written", dest, url, got, SHA256[dest])
			}
			p := filepath.Join(dir, dest)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := WriteFileAtomic(p, b); err != nil {
				return err
			}
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "verified %s (sha256 %.12s…)\n", p, SHA256[dest])
			}
		}
	}
	return nil
}

func download(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("data: downloading %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("data: downloading %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}
