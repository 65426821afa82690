#!/usr/bin/env bash
# Issue 14 item 2: why the distance MSE does not lift P-GNN's τ.
# Communities link, 3 seeds, 200 epochs, base and both (λ_MSE = P-GNN's
# default 1; GCN both at λ_MSE 1 for the MSE-loss comparison), under the
# reference anchor protocol (redrawn every step, evaluation on the last
# draw), anchors drawn once for the whole run, and evaluation on a fresh
# draw. Each cell keeps its history (MSE loss) and per-distance cosines.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
OUT=out/pgnn-mse
BIN=bin/ignn-pgnn
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
run() {
  local name=$1; shift
  echo "== $name"
  "$BIN" compare --dataset communities --task link --variants base,both --repeats 3 --epochs 200 \
    --lambda-mse 1 --workers "$W" --out "$OUT/$name" --format markdown --quiet "$@" > "$OUT-$name.md.tmp"
  mv "$OUT-$name.md.tmp" "$OUT/$name/table.md"
}
run gcn --models gcn
run reference --models pgnn-e,pgnn-f
run once --models pgnn-e,pgnn-f --pgnn-anchors once
run fresh-eval --models pgnn-e,pgnn-f --pgnn-eval-anchors fresh
