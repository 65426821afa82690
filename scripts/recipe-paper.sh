#!/usr/bin/env bash
# Issue 36, goal 4: ignn's default recipe for users' graphs (--scale large:
# landmark input, skip path with a principal start, pair-ranking distance
# term, mini-batches where the model can) on the paper's datasets and tasks,
# beside the paper protocol's base and both (docs/paper-protocol/results.md,
# which `make reproduce-paper` writes first). Per (dataset, task): every model,
# variant both, seeds 1–3, no flag but --scale large. Resumable (finished
# cells are kept). Writes docs/paper-protocol/recipe.md.
# Usage: scripts/recipe-paper.sh [workers]
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-2}
OUT=out/reproduce-paper/recipe
BIN=bin/ignn-recipe
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo +modified)
mkdir -p "$OUT"
start=$(date +%s)
for dt in communities-link communities-pair email-link email-pair protein-link; do
	ds=${dt%-*} task=${dt#*-}
	echo "== $dt: ignn compare --dataset $ds --task $task --scale large --models gcn,sage,gat,gin,pgnn-f,pgnn-e --variants both --repeats 3 --capacity=false"
	"$BIN" compare --dataset "$ds" --task "$task" --scale large --models gcn,sage,gat,gin,pgnn-f,pgnn-e --variants both \
		--repeats 3 --capacity=false --workers "$W" --out "$OUT/$dt" --quiet > "$OUT/$dt.txt"
done
echo "$(( $(date +%s) - start ))" > "$OUT/wall_seconds"
python3 scripts/recipe-paper.py "$OUT" docs/paper-protocol/results.md "$commit" > docs/paper-protocol/recipe.md
echo "wrote docs/paper-protocol/recipe.md"
