#!/usr/bin/env bash
# The paper's selection protocol (issue 14): per (model, dataset, task,
# variant), choose the learning rate from {1e-4, 1e-3, 1e-2} and, for the
# MSE variants, λ_MSE from {0.1, 1, 10} (λ_BCE = 1) by validation AUC on
# seed 1, then run seeds 1–3 at the chosen setting (seed 1's cell is
# reused). Protein reuses Email link's choices, as the paper did. The six
# models on Communities and Email (link and pair, 200 epochs) and protein
# (link, 50 epochs). Resumable; writes docs/paper-protocol/results.md.
# Usage: scripts/reproduce-paper.sh [workers]
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
OUT=out/reproduce-paper
BIN=bin/ignn-paper
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT/final"
commit=$(git rev-parse --short HEAD)
start=$(date +%s)
models="[gcn, sage, gat, gin, pgnn-f, pgnn-e]"
selection_grid() { # dataset task epochs
  printf 'settings:\n  dataset: %s\n  task: %s\n  epochs: %s\ngrids:\n' "$1" "$2" "$3"
  for lr in 0.0001 0.001 0.01; do
    printf '  - models: %s\n    variants: [base, hash]\n    repeats: 1\n    lr: %s\n' "$models" "$lr"
    for lm in 0.1 1 10; do
      printf '  - models: %s\n    variants: [mse, both]\n    repeats: 1\n    lr: %s\n    lambda-mse: %s\n' "$models" "$lr" "$lm"
    done
  done
}
for dt in communities-link communities-pair email-link email-pair; do
  ds=${dt%-*} task=${dt#*-}
  dir=$OUT/$dt
  mkdir -p "$dir"
  selection_grid "$ds" "$task" 200 > "$dir/selection.grid.yaml"
  echo "== $dt: selection (seed 1)"
  "$BIN" compare --grid "$dir/selection.grid.yaml" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/selection.md"
  cp "$dir/results.json" "$dir/selection.json"
  go run ./scripts/selectgrid -results "$dir/selection.json" -set "dataset=$ds" -set "task=$task" -set epochs=200 > "$dir/final.grid.yaml"
  echo "== $dt: seeds 1-3 at the chosen settings"
  "$BIN" compare --grid "$dir/final.grid.yaml" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/final.md"
  rm -rf "$OUT/final/$dt" && mkdir -p "$OUT/final/$dt" && cp "$dir/results.json" "$OUT/final/$dt/"
done
dir=$OUT/protein-link
mkdir -p "$dir"
go run ./scripts/selectgrid -results "$OUT/email-link/selection.json" -set dataset=protein -set task=link -set epochs=50 -set eval-every=5 > "$dir/final.grid.yaml"
echo "== protein-link: seeds 1-3 at Email link's choices"
"$BIN" compare --grid "$dir/final.grid.yaml" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/final.md"
rm -rf "$OUT/final/protein-link" && mkdir -p "$OUT/final/protein-link" && cp "$dir/results.json" "$OUT/final/protein-link/"
end=$(date +%s)
echo "$((end - start))" > "$OUT/final/wall_seconds"
mkdir -p docs/paper-protocol
"$BIN" report --results "$OUT/final" --out docs/paper-protocol --selection \
  --command "scripts/reproduce-paper.sh $W (make reproduce-paper) at commit $commit"
