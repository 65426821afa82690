#!/usr/bin/env bash
# Makes the compressed and converted fixtures from graph.txt (one graph,
# 16 nodes with ids 1..16, 28 edges): the same edges as gzip, bzip2 and
# zstd streams, a CSV with a header and a weight column, a semicolon file
# with a KONECT-style % comment and a timestamp column, and a symmetric
# Matrix Market pattern file. Run from this directory; needs gzip, bzip2
# and zstd (Debian packages of the same names).
set -euo pipefail
cd "$(dirname "$0")"
gzip -9 -n -c graph.txt > graph.txt.gz
bzip2 -9 -c graph.txt > graph.txt.bz2
zstd -q -19 -c graph.txt > graph.txt.zst
{ echo "source,target,weight"; awk '{print $1","$2","NR/10}' graph.txt; } > graph.csv
{ echo "% sym unweighted"; awk '{print $1";"$2";1;"1700000000+NR}' graph.txt; } > graph.konect.txt
{ echo "%%MatrixMarket matrix coordinate pattern symmetric"; echo "% the same graph, 1-based"
  echo "16 16 $(wc -l < graph.txt)"; awk '{print $2" "$1}' graph.txt; } > graph.mtx
