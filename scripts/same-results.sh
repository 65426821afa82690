#!/usr/bin/env bash
# The "moves and retyping only" guard of a refactor (issue 35): runs a fixed set
# of commands with one binary and writes their outputs, timing and provenance
# stripped, to a folder; run it with the binary before and after a change and
# `diff -r` the two folders. A third argument, a folder an older binary wrote,
# adds the reuse checks: its checkpoint resumed and embedded, its compare output
# folder reused without rerunning a cell.
#
#   scripts/same-results.sh OLD_BIN /tmp/same-old
#   scripts/same-results.sh NEW_BIN /tmp/same-new /tmp/same-old
#   diff -r /tmp/same-old /tmp/same-new
#
# About 3 minutes on 2 cores.
set -euo pipefail
bin=$(realpath "$1")
out=$2
old=${3:-}
mkdir -p "$out"
strip='del(.train_seconds, .ms_per_epoch, .ms_per_epoch_mean, .prepare_seconds, .eval_seconds, .ms_per_step, .provenance, .encoding_seconds, .stage_seconds)'

models=$("$bin" models | awk '$1 != "name" {print $1}')
for m in $models; do
	for v in base hash mse both; do
		"$bin" train --model "$m" --variant "$v" --json --quiet | jq -S "$strip" > "$out/communities-$m-$v.json"
	done
done
for g in grid:100x100 caveman:500x20; do
	for m in gcn gin; do
		"$bin" train --dataset "$g" --model "$m" --scale large --json --quiet | jq -S "$strip" > "$out/large-${g/:/-}-$m.json"
	done
done
"$bin" train --model sage --select objective --json --quiet | jq -S "$strip" > "$out/select-objective.json"
rm -rf "$out/ck"
"$bin" train --model gcn --epochs 40 --save "$out/ck" --json --quiet | jq -S "$strip" > "$out/saved.json"
"$bin" embed --checkpoint "$out/ck" --out "$out/z.tsv" > /dev/null
rm -rf "$out/ck"

if [ -n "$old" ]; then
	# The older binary's checkpoint: resumed (a finished run: the same result) and embedded.
	rm -rf "$out/oldck" && cp -r "$old/oldck-src" "$out/oldck"
	"$bin" train --resume "$out/oldck" --json --quiet | jq -S "$strip" > "$out/resumed.json"
	"$bin" embed --checkpoint "$out/oldck" --out "$out/z-old-ck.tsv" > /dev/null
	rm -rf "$out/oldck"
	# The older binary's compare folder: every cell reused, nothing rerun.
	rm -rf "$out/run" && cp -r "$old/run-src" "$out/run"
	cap=() # a binary with the (capacity) row would add its cells: leave them out of the reuse check
	"$bin" compare --help | grep -q -- --capacity && cap=(--capacity=false)
	"$bin" compare --grid scripts/run.grid.yaml "${cap[@]}" --workers 2 --out "$out/run" --format json 2> "$out/run.stderr" |
		jq -S 'del(.provenance, .settings, .settings_per_cell, .cells[].settings)' > "$out/run.json"
	if grep -q "training\|running" "$out/run.stderr"; then echo "compare reran cells:"; cat "$out/run.stderr"; fi
	rm -rf "$out/run"
else
	"$bin" train --model gcn --epochs 40 --save "$out/oldck-src" --quiet > /dev/null
	cp "$out/saved.json" "$out/resumed.json"
	cp "$out/z.tsv" "$out/z-old-ck.tsv"
	"$bin" compare --grid scripts/run.grid.yaml --workers 2 --out "$out/run-src" --format json 2> /dev/null |
		jq -S 'del(.provenance, .settings, .settings_per_cell, .cells[].settings)' > "$out/run.json"
fi
echo "wrote $(ls "$out" | wc -l) outputs to $out"
