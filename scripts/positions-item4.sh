#!/usr/bin/env bash
# Issue 17 item 4: can `both` keep the τ of its own raw landmark input?
# Communities link, GCN/SAGE/GIN, both with landmark:32, 3 seeds, 200
# epochs, dropout 0: λ_MSE ∈ {1, 10, 100} × skip path off/on.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
OUT=out/positions-item4
BIN=bin/ignn
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
for lm in 1 10 100; do
  for skip in "" --position-skip; do
    name=lm$lm${skip:+-skip}
    echo "== $name"
    "$BIN" compare --dataset communities --task link --models gcn,sage,gin --variants base,both \
      --positions landmark:32 --repeats 3 --epochs 200 --lambda-mse "$lm" --dropout 0 $skip \
      --workers "$W" --out "$OUT/$name" --format markdown --quiet > "$OUT-$name.md.tmp"
    mv "$OUT-$name.md.tmp" "$OUT/$name/table.md"
  done
done
