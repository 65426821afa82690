#!/usr/bin/env bash
# Issue 64: the joint frontier of link AUC and τ on graphs users bring. Per
# graph three compares (MODELS, default gcn,sage,gin; seeds 1..SEEDS,
# default 3):
#   recipe:   no flag but --dataset (the default recipe), variants base and
#             both, with --positions landmark:L (the recipe's own input: L =
#             256 below 50,000 nodes, 64 from there) for the (input) row; the
#             (capacity) row (a free table on the runs' own objective), the
#             (skip path alone) row (the recipe's both with --skip-alone: the
#             ablation, one cell per seed), the (skip path + sketch) row
#             (the same keeping the sketch, below 50,000 nodes: the recipe
#             without its trained layers) and the (common neighbours),
#             (adamic-adar) and (preferential attachment) rows come by default;
#   paper:    --scale paper (the paper's hash input + MSE, whole-graph steps),
#             variants base and both.
# (An OUT made before compare's (skip path alone) row has a third compare per
# graph, NAME-ablation, with --skip-alone per model: scripts/frontier.py reads
# either.)
# Then scripts/frontier.py writes the table (docs/frontier.md, or FRONTIER_DOC).
#
#   scripts/frontier.sh [OUT] [NAME…]
#
# OUT defaults to out/frontier; NAMEs pick graphs from the list below (default:
# all of them; the 10⁵-node ones take hours on 2 cores). IGNN_BIN=path runs
# that binary instead of building one. Resumable: finished cells are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/frontier}
shift || true
data=${IGNN_DATA:-../shared/data}
models=${MODELS:-gcn,sage,gin}
seeds=${SEEDS:-3}
# name=dataset=L, L the recipe's landmark count for the graph's size.
all=("wiki-vote=$data/wiki-vote/Wiki-Vote.txt=256" "email-user=$data/email/email.txt=256" "caveman500x20=caveman:500x20=256"
	"grid30x30=grid:30x30=256" "plc20000=plc:20000:4:0.5=256" "ba100000=ba:100000:4=64" "grid316x316=grid:316x316=64"
	"caveman5000x20=caveman:5000x20=64")
graphs=()
if [ $# -eq 0 ]; then
	graphs=("${all[@]}")
else
	for want in "$@"; do
		found=
		for g in "${all[@]}"; do [ "${g%%=*}" = "$want" ] && graphs+=("$g") && found=1; done
		[ -n "$found" ] || { echo "frontier.sh: unknown graph $want (known: ${all[*]%%=*})" >&2; exit 2; }
	done
fi
. scripts/common.sh
binary_and_commit
mkdir -p "$out"
echo "$commit" > "$out/commit"
for g in "${graphs[@]}"; do
	name=${g%%=*} rest=${g#*=}
	ds=${rest%=*} marks=${rest##*=}
	for scheme in recipe paper; do
		case $scheme in
		recipe) flags=(--variants base,both --positions "landmark:$marks") ;;
		paper) flags=(--variants base,both --scale paper --capacity=false --heuristics=false) ;;
		esac
		cmd=("$bin" compare --dataset "$ds" --models "$models" --repeats "$seeds" --workers 2 "${flags[@]}")
		echo "== $name $scheme: ${cmd[*]}" >&2
		echo "ignn ${cmd[*]:1}" > "$out/$name-$scheme.cmd"
		# A compare resumed over finished cells takes seconds: its time goes to
		# .rerun.time, and .time keeps the wall and peak RSS of the first run.
		timef="$out/$name-$scheme.time"
		grep -qs '^[0-9.]* [0-9]*$' "$timef" && timef="$out/$name-$scheme.rerun.time"
		/usr/bin/time -f "%e %M" -o "$timef" "${cmd[@]}" --out "$out/$name-$scheme" --quiet > "$out/$name-$scheme.txt"
	done
done
python3 scripts/frontier.py "$out" > "${FRONTIER_DOC:-docs/frontier.md}"
echo "wrote ${FRONTIER_DOC:-docs/frontier.md}" >&2
