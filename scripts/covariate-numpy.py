#!/usr/bin/env python3
"""Reference figures for runner/stats/covariate.js, computed independently with NumPy: an ordinary least-squares fit
of y on group indicators plus x (ANCOVA with a common slope), on fixed samples. Writes
test/fixtures/stats/covariate-numpy.json, which test/unit/stats/covariate.test.js compares against.
Usage: python3 scripts/covariate-numpy.py (needs numpy)."""
import json
import pathlib

import numpy as np

# log speed_probe_ms, log wall_ms of three made-up cells (the probe moves the wall, plus noise of its own)
SAMPLES = [
    {"x": [4.61, 4.65, 4.70, 4.58, 4.80, 4.62], "y": [8.74, 8.77, 8.85, 8.71, 8.93, 8.78]},
    {"x": [4.60, 4.72, 4.66, 4.63], "y": [8.06, 8.17, 8.13, 8.05]},
    {"x": [4.59, 4.59, 4.75, 4.68, 4.64], "y": [8.10, 8.12, 8.22, 8.19, 8.11]},
]


def fit(groups):
    x = np.concatenate([np.array(g["x"]) for g in groups])
    y = np.concatenate([np.array(g["y"]) for g in groups])
    labels = np.concatenate([np.full(len(g["x"]), i) for i, g in enumerate(groups)])
    dummies = (labels[:, None] == np.arange(len(groups))[None, :]).astype(float)
    design = np.column_stack([dummies, x])
    coefficients, _, _, _ = np.linalg.lstsq(design, y, rcond=None)
    residuals = y - design @ coefficients
    n, k = len(y), len(groups)
    group_means = dummies @ np.linalg.lstsq(dummies, y, rcond=None)[0]
    x_means = dummies @ np.linalg.lstsq(dummies, x, rcond=None)[0]
    sd_before = np.sqrt(np.sum((y - group_means) ** 2) / (n - k))
    sd_after = np.sqrt(np.sum(residuals**2) / (n - k - 1))
    correlation = np.corrcoef(x - x_means, y - group_means)[0, 1]
    slope = coefficients[-1]
    centre = float(np.mean(x))
    return {
        "slope": float(slope),
        "correlation": float(correlation),
        "sdBefore": float(sd_before),
        "sdAfter": float(sd_after),
        "varianceReduction": float(1 - sd_after**2 / sd_before**2),
        "centre": centre,
        "adjustedFirstGroup": [float(v) for v in np.array(groups[0]["y"]) - slope * (np.array(groups[0]["x"]) - centre)],
    }


out = pathlib.Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "covariate-numpy.json"
out.write_text(json.dumps({"numpy": np.__version__, "samples": SAMPLES, "expected": fit(SAMPLES)}, indent=2) + "\n")
print(f"wrote {out}")
