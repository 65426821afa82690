#!/usr/bin/env bash
# Scale (issue 37): `ignn train --dataset GRAPH --model M` with NO other
# setting on graphs of 10⁵, 10⁶ and 10⁷ nodes, each under /usr/bin/time:
# every stage's seconds (the run's stage log, also in the JSON's
# stage_seconds), wall clock and peak RSS of the whole command, the memory
# plan's estimate, the mini-batch node slots and ms per step, final test
# AUC and τ with its interval, and the raw landmark:64 input's own τ (the
# `(input)` row of `ignn compare --positions`). A run the memory plan
# refuses is recorded with the plan's message. Writes the marked regions
# of docs/scale.md (the table of runs, the stage times, the commands),
# replacing the entries of the runs it has and keeping the rest of the
# doc, which is written by hand; the runs stay in out/scale (a run whose
# files exist is not rerun).
# Usage: [SKIP_INPUT="GRAPH …"] scripts/scale.sh [GRAPH@MODEL …]   (default:
# the list below, in the order it runs: every graph's GCN first, GIN after;
# SKIP_INPUT names graphs whose (input) reference is not computed, and
# INPUT_FLAGS adds flags to it (scripts/common.sh); the 2·10⁷ row of
# docs/scale.md: scripts/scale.sh grid:4472x4472@gcn)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=out/scale
BIN=bin/ignn
. scripts/common.sh
DOC=docs/scale.md
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT"
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(grid:316x316@gcn grid:1000x1000@gcn grid:3163x3163@gcn rgg:10000000:8@gcn
  grid:316x316@gin grid:1000x1000@gin grid:3163x3163@gin rgg:10000000:8@gin)
graphs=()
for j in "${jobs[@]}"; do
  g=${j%@*} m=${j##*@} n=${j%@*}
  n=${n//:/-}
  train_once "$n-$m" --dataset "$g" --model "$m"
  if [ "$m" = gcn ] && [ -s "$OUT/$n-gcn.json" ]; then
    case " ${SKIP_INPUT:-} " in
      *" $g "*) ;;
      *) input_reference "$g" "$OUT/$n-input" ;;
    esac
  fi
  case " ${graphs[*]} " in *" $g "*) ;; *) graphs+=("$g") ;; esac
done
# The plan beside each peak is the run's own (its JSON's
# memory_estimate_bytes: the plan of the binary that ran it, with the
# spilling it chose). A probe at --max-memory 1K is no substitute since
# --spill auto: the run it plans spills everything to fit.
python3 - "$OUT" "$DOC" "$(git rev-parse --short HEAD)" "$(nproc)" "${graphs[@]}" <<'EOF'
import json, os, re, sys
sys.path.insert(0, "scripts")
from runrow import run_figures, stage_line
out, doc, commit, cores, graphs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
L = ["# Scale: 10⁵, 10⁶ and 10⁷ nodes on one machine", "",
     f"Written by `scripts/scale.sh` (binary at {commit}) on {cores} cores, 24 GiB. Every row is",
     "`ignn train --dataset GRAPH --model M` with no other flag: the defaults a user gets (the",
     "large-graph recipe: landmark:64 input with a constant feature, a gated skip path, the ranking",
     "term on pair triples, 10 epochs × 50 mini-batch steps of 512 positives). Wall time and peak RSS",
     "are the whole command's (/usr/bin/time; GiB = 2³⁰ bytes); the plan is the memory plan's estimate",
     "before anything is built (the run's own, from its JSON). AUC and τ are the final epoch's (test link AUC; τ-b between hop",
     "distance and cosine over the run's fixed 2·10⁶-pair sample, with its 95% interval). `(input)`",
     "is the raw landmark:64 vector's own τ. A run the plan refuses shows the plan's message.", ""]
rows, stages = [], {}
for g in graphs:
    n = g.replace(":", "-")
    inp = f"{out}/{n}-input.json"
    itau = json.load(open(inp))["inputs"][0]["tau_mean"] if os.path.exists(inp) else None
    for m in ["gcn", "gin"]:
        base = f"{out}/{n}-{m}"
        if os.path.exists(base + ".refused"):
            rows.append(f"| {g} | {m} | refused: {open(base + '.refused').read().strip().removeprefix('ignn: ')} | | | | | | | |")
            continue
        if not os.path.exists(base + ".json"):
            continue
        x = run_figures(base); r, ci, peak, plan = x["result"], x["ci"], x["peak"], x["plan"]
        rows.append(f"| {g} | {m} | {x['auc']:.3f} | {x['tau']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] | "
                    f"{'' if itau is None else f'{itau:.3f}'} | {x['wall']:.0f} s | {peak:.2f} GiB | "
                    f"{plan:.2f} GiB ({plan / peak:.2f}×) | "
                    f"{x['slots']} | {x['step_ms']:.0f} |")
        stages[f"{g} {m}"] = stage_line(r)
table = ["| graph | model | AUC | τ [95% CI] | (input) τ | wall | peak RSS | plan (÷ peak) | batch slots | ms/step |",
         "|---|---|---|---|---|---|---|---|---|---|"] + rows
stage_lines = []
for k, st in stages.items():
    stage_lines += [f"**{k}**: " + st, ""]
commands = []
for g in graphs:
    for m in ["gcn", "gin"]:
        c = f"{out}/{g.replace(':', '-')}-{m}.cmd"
        if os.path.exists(c):
            commands.append("    " + open(c).read().strip())
# The doc is partly hand-written (the spilled runs, 10⁸, the training
# step's A/B): the script owns only the regions between its markers, and
# within them it replaces the entries of the runs it has (a table row by
# graph and model, a stage line by its bold key, a command by its text)
# and keeps the others — a machine holding some of the runs updates those.
regions = {"runs": table, "stages": stage_lines, "commands": commands}
def key(name, line):
    if name == "runs" and line.startswith("| ") and not line.startswith("| graph |"):
        return tuple(c.strip() for c in line.split("|")[1:3])
    if name == "stages" and line.startswith("**"):
        return line.split("**")[1]
    if name == "commands" and line.strip():
        return line.strip()
    return None
def merge(name, old, new):
    fresh = {key(name, l): l for l in new if key(name, l) is not None}
    out, seen = [], set()
    for l in old:
        k = key(name, l)
        if k is None:
            if name != "stages" or (out and out[-1] != ""):
                out.append(l)
            continue
        out.append(fill(fresh[k], l) if k in fresh else l)
        seen.add(k)
        if name == "stages":
            out.append("")
    for l in new:
        k = key(name, l)
        if k is not None and k not in seen:
            out.append(l)
            if name == "stages":
                out.append("")
    out = out if old else new
    while name == "stages" and out and out[-1] == "":
        out.pop()
    return out
def fill(new, old):
    """A table row with its empty cells taken from the row it replaces (an
    (input) τ this machine did not compute: the input's, not the binary's)."""
    if not new.startswith("| "):
        return new
    n, o = new.split("|"), old.split("|")
    return "|".join(c if c.strip() or i >= len(o) else o[i] for i, c in enumerate(n))
def mark(name, lines):
    return [f"<!-- scale.sh: {name} -->"] + lines + [f"<!-- /scale.sh: {name} -->"]
if not os.path.exists(doc):
    L += mark("runs", table) + ["", "## Stage times (seconds)", ""] + mark("stages", merge("stages", [], stage_lines)) + ["", "## Commands", ""] + mark("commands", commands) + [""]
    open(doc, "w").write("\n".join(L))
else:
    text = open(doc).read().split("\n")
    for name, lines in regions.items():
        b, e = f"<!-- scale.sh: {name} -->", f"<!-- /scale.sh: {name} -->"
        if b not in text or e not in text:
            sys.exit(f"{doc} has no region {b} … {e}: add the markers around what the script writes there")
        i, j = text.index(b), text.index(e)
        text = text[:i + 1] + merge(name, text[i + 1:j], lines) + text[j:]
    open(doc, "w").write("\n".join(text))
print("wrote", doc, file=sys.stderr)
EOF
