"""One train_once run's figures (scripts/common.sh: NAME.json and NAME.time
beside each other), as the scale and spill tables print them."""
import json
import re


def run_figures(base):
    """The run at base: its result, final test AUC and τ with its interval,
    wall seconds, peak RSS and the run's own plan in GiB, batch slots and
    ms per step."""
    r = json.load(open(base + ".json"))
    f = r["final"]
    wall, rss = open(base + ".time").read().split()
    slots = re.search(r"in (\d+) node slots", r.get("batches", ""))
    steps = r["config"].get("batch_steps", 0) or 1
    return {
        "result": r,
        "auc": f["test_auc"],
        "tau": f["test_kendall_tau"],
        "ci": f.get("test_kendall_tau_ci") or [float("nan")] * 2,
        "wall": float(wall),
        "peak": int(rss) * 1024 / 2**30,
        "plan": r["memory_estimate_bytes"] / 2**30,
        "slots": slots.group(1) if slots else "",
        "step_ms": r["ms_per_epoch"] / steps if r.get("ms_per_epoch") else float("nan"),
    }


def stage_line(r):
    """The run's stage log as one line of seconds; the training stage with
    its split (the epochs' preparation, the evaluations, the steps and the
    median step's own time) when the result states it."""
    parts = []
    for s in r.get("stage_seconds") or []:
        p = f"{s['stage']} {s['seconds']:.1f}"
        if s["stage"] == "training and evaluation" and "prepare_seconds" in r:
            steps = r["train_seconds"] - r["prepare_seconds"] - r["eval_seconds"]
            p += (f" (steps and checkpoints {steps:.1f}" + (f", {r['ms_per_step']:.0f} ms a step" if r.get("ms_per_step") else "") +
                  f"; the epochs' preparation {r['prepare_seconds']:.1f}; evaluations {r['eval_seconds']:.1f})")
        parts.append(p)
    return "; ".join(parts)
