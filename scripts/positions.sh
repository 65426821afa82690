#!/usr/bin/env bash
# Issue 17's comparison of positional inputs: GCN, SAGE and GIN; base, hash
# and both; each of hash, lap:16, rw:16 and landmark:32; 3 seeds; with a
# reference row per input, on Communities, Email and a 30×30 grid (link
# prediction). The protocol of the issue's PyTorch Geometric table:
# λ_BCE = λ_MSE = 1, dropout 0, 200 epochs. Resumable.
# Usage: scripts/positions.sh [workers] [extra compare flags…]
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
shift || true
OUT=out/positions
BIN=bin/ignn
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
for ds in communities email grid:30x30; do
  name=${ds/:/-}
  echo "== $name"
  variants=base,hash,both
  [ "$ds" = communities ] && variants=base,hash,mse,both # the issue's "none, with the MSE" row
  "$BIN" compare --dataset "$ds" --task link --models gcn,sage,gin --variants "$variants" \
    --positions hash,lap:16,rw:16,landmark:32 --repeats 3 --epochs 200 --lambda-mse 1 --dropout 0 \
    --workers "$W" --out "$OUT/$name" --format markdown --quiet "$@" > "$OUT-$name.md.tmp" || exit 1
  mv "$OUT-$name.md.tmp" "$OUT/$name/table.md"
  "$BIN" plot --curves --results "$OUT/$name" --out "$OUT/$name"
done
