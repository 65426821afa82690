#!/usr/bin/env bash
# Reproduces the paper's Tables 1–2 grid: six models × four variants, seeds
# 1..3, on Communities and Email (link and pair) and protein (link), plus the
# λ sweep of Figure 1 (GCN + both on Communities link), then writes
# docs/results.md and the plots. Resumable: re-running skips finished cells.
# Usage: scripts/reproduce.sh [workers]
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
OUT=out/reproduce
BIN=bin/ignn
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
commit=$(git rev-parse --short HEAD)
start=$(date +%s)
run() { # name, then compare flags
  local name=$1; shift
  echo "== $name"
  "$BIN" compare --repeats 3 --workers "$W" --out "$OUT/$name" --quiet "$@"
}
run communities-link --dataset communities --task link --epochs 200
run communities-pair --dataset communities --task pair --epochs 200
run email-link       --dataset email       --task link --epochs 200
run email-pair       --dataset email       --task pair --epochs 200
run protein-link     --dataset protein     --task link --epochs 50 --eval-every 5
echo "== sweep"
"$BIN" sweep --models gcn --variants both --repeats 1 --workers "$W" --out "$OUT/sweep/communities-link" --quiet \
  --dataset communities --task link --epochs 200
end=$(date +%s)
echo "$((end - start))" > "$OUT/wall_seconds"
"$BIN" report --results "$OUT" --sweep "$OUT/sweep/communities-link" --out docs \
  --command "scripts/reproduce.sh $W (make reproduce) at commit $commit"
