#!/usr/bin/env bash
# The ranking term's BFS sources every epoch (the default) against once
# for the run (--rank-fixed-sources), at 10⁶ nodes on three kinds of graph
# (geometric grid, random geometric, small world): GCN, seed 1, no other
# flag; `ignn train --json` under /usr/bin/time into out/fixed-ab (a run
# whose JSON exists is not rerun). docs/large-graphs.md quotes the table
# the script prints at its end.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=out/fixed-ab
BIN=bin/ignn-ab
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT"
for g in grid:1000x1000 rgg:1000000:6 caveman:50000x20; do
  n=${g//:/-}
  for v in epoch fixed; do
    f=$OUT/$n-$v
    [ -s "$f.json" ] && continue
    extra=()
    [ "$v" = fixed ] && extra=(--rank-fixed-sources)
    /usr/bin/time -f "%e %M" -o "$f.time" "$BIN" train --dataset "$g" --model gcn "${extra[@]}" --json > "$f.json.tmp" 2> "$f.log"
    mv "$f.json.tmp" "$f.json"
  done
done
python3 - "$OUT" <<'PY'
import glob, json, os, sys
print("| graph | sources | test AUC | τ [95% CI] | wall s | peak GiB | ms/step |")
print("|---|---|---|---|---|---|---|")
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    r, (wall, kib) = json.load(open(f)), open(f[:-5] + ".time").read().split()
    fi, name = r["final"], os.path.basename(f)[:-5]
    g, v = name.rsplit("-", 1)
    print("| %s | %s | %.4f | %.4f [%.4f, %.4f] | %.0f | %.2f | %.0f |" % (g, {"epoch": "every epoch", "fixed": "once"}[v],
          fi["test_auc"], fi["test_kendall_tau"], *fi["test_kendall_tau_ci"], float(wall), int(kib) / 2**20,
          r["ms_per_epoch"] / r["config"]["batch_steps"]))
PY
