#!/usr/bin/env bash
# Issue 36: the default recipe on graphs users bring, against the paper's
# recipe, the raw input and the capacity reference. Per graph, two compares
# (GCN, SAGE, GIN; base and both; seeds 1-3):
#   recipe: no flags but --dataset (every graph of a user's gets the faithful
#           recipe), with --positions landmark:L, the recipe's own input
#           (run.LandmarkCount: 256 below 50,000 nodes, 64 from there), for
#           the (input) row, and the default (capacity) row;
#   paper:  --scale paper (the paper's hash input + MSE, whole-graph steps).
# Then scripts/faithful-users.py writes the table (docs/faithful-users.md).
#
#   scripts/faithful-users.sh [OUT] [--large | --large-only]
#
# OUT defaults to out/faithful-users; --large adds the two 10⁵-node graphs
# caveman:5000x20 and grid:316x316; --large-only runs just those two and
# writes docs/faithful-users-large.md instead of docs/faithful-users.md. On
# those two the paper scheme's both trains on the whole graph (≈ 2.7 s an
# epoch on caveman:5000x20): the paper compare alone takes over an hour on 2
# cores. IGNN_BIN=path (and IGNN_COMMIT=its commit) runs that binary instead
# of building one, to finish a folder with the binary that began it.
# Resumable: finished cells are kept. Where a base-only paper compare was
# resumed with both, GRAPH-paper-both.time holds the second part's wall and
# GRAPH-paper.time the sum; the table says so.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/faithful-users}
data=${IGNN_DATA:-../shared/data}
# name=dataset=L, L the recipe's landmark count for the graph's size.
graphs=("wiki-vote=$data/wiki-vote/Wiki-Vote.txt=256" "email-user=$data/email/email.txt=256" "caveman500x20=caveman:500x20=256" "grid30x30=grid:30x30=256")
doc=docs/faithful-users.md
large=("caveman5000x20=caveman:5000x20=64" "grid316x316=grid:316x316=64")
case "${2:-}" in
--large) graphs+=("${large[@]}") ;;
--large-only) graphs=("${large[@]}") doc=docs/faithful-users-large.md ;;
"") ;;
*) echo "faithful-users.sh: unknown option ${2} (--large or --large-only)" >&2; exit 2 ;;
esac
. scripts/common.sh
binary_and_commit
mkdir -p "$out"
for g in "${graphs[@]}"; do
	name=${g%%=*} rest=${g#*=}
	ds=${rest%=*} marks=${rest##*=}
	for scheme in recipe paper; do
		flags=(--positions "landmark:$marks")
		variants=base,both
		if [ "$scheme" = paper ]; then
			flags=(--scale paper --capacity=false)
		fi
		echo "== $name $scheme: ignn compare --dataset $ds --models gcn,sage,gin --variants $variants --repeats 3 ${flags[*]}"
		/usr/bin/time -f "%e %M" -o "$out/$name-$scheme.time" \
			"$bin" compare --dataset "$ds" --models gcn,sage,gin --variants "$variants" --repeats 3 --workers 2 \
			"${flags[@]}" --out "$out/$name-$scheme" --quiet > "$out/$name-$scheme.txt"
		echo "ignn compare --dataset $ds --models gcn,sage,gin --variants $variants --repeats 3 --workers 2 ${flags[*]}" > "$out/$name-$scheme.cmd"
	done
	if [ "$marks" != 64 ]; then # the previous recipe's input, as a second reference row
		"$bin" compare --dataset "$ds" --models gcn --variants base --repeats 3 --workers 2 --epochs 1 --capacity=false \
			--positions landmark:64 --out "$out/$name-input64" --quiet > "$out/$name-input64.txt"
	fi
done
python3 scripts/faithful-users.py "$out" "$commit" > "$doc"
echo "wrote $doc"
