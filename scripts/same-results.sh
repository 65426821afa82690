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
# The large section runs graphs just past 2^18 nodes, where a mini-batch run's
# evaluations are chunked (grid:520x520) or layer-wise (ba:270000:3, a small
# world whose 3-hop neighbourhoods exceed the slots), with --spill, with
# --prepared (ignn prepare in two parts), and embed --shard in two parts then
# --gather; it compares the memory plans (train --plan --json), the prepared
# parts and the embedding shards byte for byte. IGNN_SAME_SMALL=1 leaves it out.
#
# About 3 minutes on 2 cores, and about 4 more for the large section
# (3m46s alone on a shared 2-core machine).
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

if [ -z "${IGNN_SAME_SMALL:-}" ]; then
	# Past 2^18 nodes: one epoch of two steps, evaluated once, is enough to run each path.
	fast=(--epochs 1 --batch-steps 2 --eval-every 1 --model gcn)
	"$bin" train --model gcn --plan --json 2> /dev/null | jq -S "del(.max_memory_bytes)" > "$out/plan-communities.json"
	for g in grid:100x100 grid:520x520 ba:270000:3; do
		"$bin" train --dataset "$g" "${fast[@]}" --plan --json 2> /dev/null | jq -S "del(.max_memory_bytes)" > "$out/plan-${g//:/-}.json"
	done
	"$bin" train --dataset grid:520x520 "${fast[@]}" --spill "$out/spill" --plan --json 2> /dev/null | jq -S "del(.max_memory_bytes)" > "$out/plan-spill.json"
	rm -rf "$out/ck-chunked" "$out/ck-layerwise" "$out/spill" "$out/prep"
	# chunked inference (and the landmark input as views, float32 embeddings)
	"$bin" train --dataset grid:520x520 "${fast[@]}" --save "$out/ck-chunked" --json --quiet | jq -S "$strip" > "$out/chunked.json"
	# layer-wise inference
	"$bin" train --dataset ba:270000:3 "${fast[@]}" --save "$out/ck-layerwise" --json --quiet | jq -S "$strip" > "$out/layerwise.json"
	# --spill: the hop counts, BFS rows and evaluation embeddings in unlinked files
	mkdir -p "$out/spill"
	"$bin" train --dataset grid:520x520 "${fast[@]}" --spill "$out/spill" --json --quiet | jq -S "$strip" > "$out/spill.json"
	rm -rf "$out/spill"
	# ignn prepare in two parts, then --prepared
	for i in 0 1; do
		"$bin" prepare --dataset grid:520x520 "${fast[@]}" --shard "$i/2" --out "$out/prep" > /dev/null 2>&1
	done
	"$bin" train --dataset grid:520x520 "${fast[@]}" --prepared "$out/prep" --json --quiet | jq -S "$strip" > "$out/prepared.json"
	(cd "$out/prep" && find . -type f | sort | xargs sha256sum) > "$out/prep.sha256"
	rm -rf "$out/prep"
	# embed --shard in two parts and --gather, chunked and layer-wise
	for k in chunked layerwise; do
		for i in 0 1; do
			"$bin" embed --checkpoint "$out/ck-$k" --shard "$i/2" --out "$out/z-$k.npy" > /dev/null
		done
		"$bin" embed --checkpoint "$out/ck-$k" --gather --shards 2 --out "$out/z-$k.npy" > /dev/null
		(cd "$out" && sha256sum z-$k.npy* z-$k.shard-*-of-2.npz) > "$out/z-$k.sha256"
		rm -f "$out/z-$k".npy* "$out/z-$k".shard-*-of-2.npz
	done
	rm -rf "$out/ck-chunked" "$out/ck-layerwise"
fi

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
