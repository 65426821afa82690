#!/usr/bin/env python3
"""Paired comparison of trained rows with their raw positional input (issue 25, goal 1).

For each compare output directory given (results.json written by `ignn compare --positions`),
each row both[POS] is paired seed by seed with the (input) row of POS: the final-epoch τ of the
cell of seed s minus the raw input's τ for seed s (tau_by_seed). Prints the mean difference
with its 95% Student-t interval, as a markdown table.

With --hash-against POS, rows `both` (the hash input) are paired with the input POS too.

Usage: scripts/vs-input.py [--hash-against landmark:32] out/faithful/communities-rank-skip [...]
"""
import json
import math
import sys

# two-sided 95% Student-t quantiles by degrees of freedom
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def main(dirs, hash_against=None):
    print("| graph | model | row | final τ | input τ | Δ (paired, 95% t interval) |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        res = json.load(open(f"{d}/results.json"))
        inputs = {i["position"]: i for i in res.get("inputs", []) if not i.get("features")}  # the input as loaded
        for row in res["rows"]:
            var = row["variant"]
            if row["model"] == "(input)":
                continue
            if var.startswith("both["):
                pos, cellpos = var[len("both["):-1], var[len("both["):-1]
            elif var == "both" and hash_against:
                pos, cellpos = hash_against, ""
            else:
                continue
            inp = inputs.get(pos)
            if inp is None or not inp.get("tau_by_seed"):
                continue
            diffs, taus = [], []
            for c in res["cells"]:
                if c["model"] != row["model"] or c.get("variant") != "both" or c.get("position", "") != cellpos:
                    continue
                t = c["final"]["test_kendall_tau"]
                s = c["seed"]
                if t is None or s > len(inp["tau_by_seed"]):
                    continue
                taus.append(t)
                diffs.append(t - inp["tau_by_seed"][s - 1])
            n = len(diffs)
            if n < 2:
                continue
            m = sum(diffs) / n
            sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1))
            h = T975.get(n - 1, 1.96) * sd / math.sqrt(n)
            print(f"| {res['dataset']} | {row['model']} | {var} | {sum(taus)/n:.3f} | {pos} {inp['tau_mean']:.3f} | "
                  f"{m:+.3f} [{m-h:+.3f}, {m+h:+.3f}]{' †' if m - h > 0 else ''} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    against = None
    if args[:1] == ["--hash-against"]:
        against, args = args[1], args[2:]
    main(args, against)
