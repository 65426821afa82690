#!/usr/bin/env python3
"""Issue 36's table from scripts/faithful-users.sh's output folder.

For each graph and model: base (paper scheme and recipe scheme), the paper's
both, the recipe (both under the default recipe), the raw landmark:64 input
and the capacity reference; final-epoch test AUC and Kendall tau (mean over
seeds 1-3, tau with its 95% interval), and whether the recipe meets the goal:
AUC >= max(best base, input) - 0.01 and tau >= max(input, capacity - 0.05).
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def cell_seconds(folder, model, variant):
    secs = []
    cells = os.path.join(folder, "cells")
    for name in sorted(os.listdir(cells)):
        if name.startswith(model + "_" + variant):
            secs.append(load(os.path.join(cells, name)).get("train_seconds", 0))
    return sum(secs) / len(secs) if secs else float("nan")


def fmt(x):
    return "—" if x is None else f"{x:.3f}"


def main(out, commit=None):
    graphs = []
    for f in sorted(os.listdir(out)):
        if f.endswith("-recipe") and os.path.isdir(os.path.join(out, f)):
            graphs.append(f[: -len("-recipe")])
    large = bool(graphs) and all(os.path.exists(os.path.join(out, g + "-recipe.cmd")) and
                                 "landmark:64" in open(os.path.join(out, g + "-recipe.cmd")).read() for g in graphs)
    print("# Faithful and accurate on users' graphs" + (": the two 10⁵-node graphs" if large else "") + " (issue 36)\n")
    print("Made by `scripts/faithful-users.sh` (then `scripts/faithful-users.py`) on the 2-core machine"
          + (f", binary built at commit {commit}." if commit else "."))
    print("Per graph two compares, GCN, SAGE and GIN, variants base and both, seeds 1–3: the *recipe* —")
    print("no flag but `--dataset` (every graph of a user's gets the faithful recipe), with `--positions landmark:L`, the")
    print("recipe's own input (L = 256 below 50,000 nodes, 64 from there), for the `(input)` row and the default")
    print("`(capacity)` row — and the *paper* scheme (`--scale paper`). Where L is not 64, a third compare")
    print("(`--epochs 1 --models gcn --variants base --positions landmark:64`) adds the raw landmark:64 input,")
    print("the previous recipe's, as a second reference row (not part of the goal).")
    print("Metrics are the final epoch's test AUC and Kendall τ (mean over 3 seeds; τ with its 95% interval).")
    print("Goal: recipe AUC ≥ max(best base AUC, input AUC) − 0.01 and τ ≥ max(input τ, capacity τ − 0.05).")
    print("Wall time and peak RSS are the whole compare's (2 workers, /usr/bin/time); they are not benchmarks —")
    print("other work may have shared the 2 cores. The (input) row has no per-cell time: it trains nothing.\n")
    met = total = 0
    below_cap = [] # (dataset, capacity τ, recipe τs) where the capacity row ends below every recipe τ
    for g in graphs:
        rec = load(os.path.join(out, g + "-recipe", "results.json"))
        pap = load(os.path.join(out, g + "-paper", "results.json"))
        inp = rec["inputs"][0] if rec.get("inputs") else None
        inp64 = None
        if os.path.exists(os.path.join(out, g + "-input64", "results.json")):
            i64 = load(os.path.join(out, g + "-input64", "results.json"))
            inp64 = i64["inputs"][0] if i64.get("inputs") else None
        pos = inp["position"] if inp else "landmark:64"
        cap = next((r for r in rec["rows"] if r["model"] == "(capacity)"), None)
        times = {}
        for s in ("recipe", "paper"):
            try:
                wall, kb = open(os.path.join(out, f"{g}-{s}.time")).read().split()[-2:]
                times[s] = (float(wall), int(kb) / 1e6)
            except (OSError, ValueError):
                times[s] = (float("nan"), float("nan"))
        cmds = {s: open(os.path.join(out, f"{g}-{s}.cmd")).read().strip() for s in ("recipe", "paper")}
        print(f"## {rec['dataset']} ({rec['task']} task)\n")
        print(f"* recipe: `{cmds['recipe']}` — {times['recipe'][0]:.0f} s wall, {times['recipe'][1]:.2f} GB peak RSS")
        resumed = ""
        try: # a base-only paper compare resumed with both: its .time holds the sum, this file the second part
            both_wall = float(open(os.path.join(out, f"{g}-paper-both.time")).read().split()[-2])
            resumed = (f" (run as the script's base-only compare, {times['paper'][0] - both_wall:.0f} s, then resumed with both: "
                       f"its 9 both cells, {both_wall:.0f} s)")
        except (OSError, ValueError, IndexError):
            pass
        print(f"* paper: `{cmds['paper']}` — {times['paper'][0]:.0f} s wall, {times['paper'][1]:.2f} GB peak RSS{resumed}")
        if "--variants base " in cmds["paper"] + " ":
            print("* the paper's both: not run on this graph (the paper scheme's base gives the best-base AUC the goal needs; its both "
                  "trains on the whole graph, ≈ 2.7 s an epoch at 10⁵ nodes: over an hour more on 2 cores)")
        print()
        print("| model | row | AUC | τ [95% CI] | s per cell |")
        print("|---|---|---|---|---|")
        verdicts = []
        for m in ("gcn", "sage", "gin"):
            def row(res, variant):
                return next((r for r in res["rows"] if r["model"] == m and r["variant"] == variant), None)
            pb, pboth = row(pap, "base"), row(pap, "both")
            rb, rboth = row(rec, "base"), row(rec, f"both[{pos}]")
            for label, r, folder, variant in (("base (paper scheme)", pb, g + "-paper", "base"),
                                              ("base (recipe scheme)", rb, g + "-recipe", "base"),
                                              ("the paper's both", pboth, g + "-paper", "both"),
                                              ("**recipe**", rboth, g + "-recipe", "both-" + pos.replace(":", ""))):
                if r is None:
                    continue
                ci = r.get("final_tau_ci95") or [None, None]
                secs = cell_seconds(os.path.join(out, folder), m, variant)
                print(f"| {m} | {label} | {fmt(r['final_auc_mean'])} | {fmt(r['final_tau_mean'])} [{fmt(ci[0])}, {fmt(ci[1])}] | {secs:.1f} |")
            if rboth and pb and rb and inp and cap:
                need_auc = max(pb["final_auc_mean"], rb["final_auc_mean"], inp["auc_mean"]) - 0.01
                need_tau = max(inp["tau_mean"], cap["final_tau_mean"] - 0.05)
                ok_auc, ok_tau = rboth["final_auc_mean"] >= need_auc, rboth["final_tau_mean"] >= need_tau
                total += 1
                met += ok_auc and ok_tau
                v = (f"{m}: AUC {rboth['final_auc_mean']:.3f} vs ≥ {need_auc:.3f} {'✓' if ok_auc else '✗'}, "
                     f"τ {rboth['final_tau_mean']:.3f} vs ≥ {need_tau:.3f} {'✓' if ok_tau else '✗'}")
                if inp64 and inp64["position"] != pos:
                    below = [f"{k} {inp64[k + '_mean']:.3f}" for k, r in (("auc", "final_auc_mean"), ("tau", "final_tau_mean"))
                             if inp64[k + "_mean"] > rboth[r]]
                    if below:
                        v += " — but below the landmark:64 input's " + " and ".join(b.replace("tau", "τ").replace("auc", "AUC") for b in below)
                verdicts.append(v)
        if inp:
            ci = inp.get("tau_ci95") or [None, None]
            print(f"| — | (input) {inp['position']} | {fmt(inp['auc_mean'])} | {fmt(inp['tau_mean'])} [{fmt(ci[0])}, {fmt(ci[1])}] | — |")
        if inp64 and inp64["position"] != pos:
            ci = inp64.get("tau_ci95") or [None, None]
            print(f"| — | (input) {inp64['position']}, the previous recipe's | {fmt(inp64['auc_mean'])} | {fmt(inp64['tau_mean'])} [{fmt(ci[0])}, {fmt(ci[1])}] | — |")
        recipe_taus = [r["final_tau_mean"] for r in rec["rows"] if r["variant"] == f"both[{pos}]"]
        if cap and recipe_taus and cap["final_tau_mean"] < min(recipe_taus):
            below_cap.append((rec["dataset"], cap["final_tau_mean"], recipe_taus))
        if cap:
            ci = cap.get("final_tau_ci95") or [None, None]
            print(f"| — | (capacity) | {fmt(cap['final_auc_mean'])} | {fmt(cap['final_tau_mean'])} [{fmt(ci[0])}, {fmt(ci[1])}] | {cell_seconds(os.path.join(out, g + '-recipe'), 'table', 'mse'):.1f} |")
        print()
        for v in verdicts:
            print(f"* {v}")
        print()
    print(f"**Goal met in {met} of {total} graph × model cells.**")
    print("\nWhat we tried on the way, what worked and what did not: [faithful-experiments.md](faithful-experiments.md).")
    if below_cap and len(below_cap) == len(graphs):
        each = "; ".join(f"{d} {c:.3f} against {min(t):.3f}" + (f"–{max(t):.3f}" if f"{max(t):.3f}" != f"{min(t):.3f}" else "")
                         for d, c, t in below_cap)
        print(f"\nOn {'every graph' if len(graphs) > 2 else 'both graphs'} the `(capacity)` row (the free table's 1,000 steps) "
              f"ends *below* the recipe ({each}): at this size it is no upper bound any more, so the goal's τ bar here is "
              "the raw input's. 3,000 steps on caveman:5000x20 level off at 0.376 "
              "([faithful-experiments.md](faithful-experiments.md)); above 10⁵ nodes `compare` leaves the row out unless "
              "`--capacity` is given.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/faithful-users", sys.argv[2] if len(sys.argv) > 2 else None)
