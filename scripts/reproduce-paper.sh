#!/usr/bin/env bash
# The paper's selection protocol (issue 14): per (model, dataset, task,
# variant), choose the learning rate from {1e-4, 1e-3, 1e-2} and, for the
# MSE variants, λ_MSE from {0.1, 1, 10} (λ_BCE = 1) by validation AUC on
# seed 1, then run seeds 1–3 at the chosen setting (seed 1's cell is
# reused). Protein reuses Email link's choices, as the paper did. The six
# models on Communities and Email (link and pair, 200 epochs) and protein
# (link, 50 epochs). Then the same under each selection rule of issue 29
# (--select objective, auc-then-objective): the selection cells are the
# same (no retraining); a rule that chooses another setting trains seeds 2–3
# there. Resumable; writes docs/paper-protocol/results.md with the per-rule
# table of the τ claim; then scripts/recipe-paper.sh adds the default
# recipe beside base and both (docs/paper-protocol/recipe.md).
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
  for rule in auc objective auc-then-objective; do
    sfx=""; [ "$rule" = auc ] || sfx="-$rule"
    echo "== $dt: selection (seed 1) by $rule"
    "$BIN" compare --grid "$dir/selection.grid.yaml" --select "$rule" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/selection$sfx.md"
    cp "$dir/results.json" "$dir/selection$sfx.json"
    go run ./scripts/selectgrid -results "$dir/selection$sfx.json" -set "dataset=$ds" -set "task=$task" -set epochs=200  > "$dir/final$sfx.grid.yaml"
    echo "== $dt: seeds 1-3 at the settings $rule chose"
    "$BIN" compare --grid "$dir/final$sfx.grid.yaml" --select "$rule" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/final$sfx.md"
    rm -rf "$OUT/rules/$rule/$dt" && mkdir -p "$OUT/rules/$rule/$dt" && cp "$dir/results.json" "$OUT/rules/$rule/$dt/"
  done
  rm -rf "$OUT/final/$dt" && mkdir -p "$OUT/final/$dt" && cp "$OUT/rules/auc/$dt/results.json" "$OUT/final/$dt/"
done
dir=$OUT/protein-link
mkdir -p "$dir"
for rule in auc objective auc-then-objective; do
  sfx=""; [ "$rule" = auc ] || sfx="-$rule"
  go run ./scripts/selectgrid -results "$OUT/email-link/selection$sfx.json" -set dataset=protein -set task=link -set epochs=50 -set eval-every=5  > "$dir/final$sfx.grid.yaml"
  echo "== protein-link: seeds 1-3 at Email link's choices by $rule"
  "$BIN" compare --grid "$dir/final$sfx.grid.yaml" --select "$rule" --workers "$W" --out "$dir" --format markdown --quiet > "$dir/final$sfx.md"
  rm -rf "$OUT/rules/$rule/protein-link" && mkdir -p "$OUT/rules/$rule/protein-link" && cp "$dir/results.json" "$OUT/rules/$rule/protein-link/"
done
rm -rf "$OUT/final/protein-link" && mkdir -p "$OUT/final/protein-link" && cp "$OUT/rules/auc/protein-link/results.json" "$OUT/final/protein-link/"
end=$(date +%s)
echo "$((end - start))" > "$OUT/final/wall_seconds"
mkdir -p docs/paper-protocol
"$BIN" report --results "$OUT/final" --rules "$OUT/rules" --out docs/paper-protocol --selection \
  --command "scripts/reproduce-paper.sh $W (make reproduce-paper) at commit $commit"
# Issue 36, goal 4: the default recipe beside base and both (docs/paper-protocol/recipe.md).
scripts/recipe-paper.sh "$W"
