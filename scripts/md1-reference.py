"""The M/D/1 reference the lab's exact arithmetic (images/workload/lib/md1.js) is pinned against.

Two independent references of the response time (wait + service) of an M/D/1 queue with service time D = 1:
- Erlang's waiting-time distribution summed by mpmath with 60 significant digits beyond those its alternating
  terms cancel, its quantiles found by bisection;
- a simulation: the Lindley recursion W[n+1] = max(0, W[n] + D - A[n+1]) over 4 million customers with numpy's
  exponential gaps (seeded), after 100,000 customers of warm-up, quantiles by numpy with a batch-means interval.

Prints JSON on stdout; test/fixtures/md1-reference.json is its output:
    python3 scripts/md1-reference.py > test/fixtures/md1-reference.json
Needs: pip install mpmath numpy scipy (scipy: Student's t for the simulation's intervals).
"""
import json
import math

import mpmath
import numpy
from scipy import stats

RHOS = [0.3, 0.5, 0.8, 0.9, 0.95]
QUANTILES = [0.5, 0.9, 0.99, 0.999]
CDF_POINTS = [0.0, 0.5, 1.0, 2.5, 7.25, 20.0]


def waiting_cdf(t, rho):
    # Terms reach e^{λt} and cancel to at most 1: 2 λt log10(e) digits are lost, 60 are kept beyond them.
    with mpmath.workdps(60 + int(2 * rho * float(t) * math.log10(math.e))):
        t = mpmath.mpf(t)
        lam = mpmath.mpf(rho)
        if t < 0:
            return mpmath.mpf(0)
        k = int(mpmath.floor(t))
        total = mpmath.mpf(0)
        for j in range(k + 1):
            x = lam * (j - t)
            total += x**j / mpmath.factorial(j) * mpmath.exp(-x)
        return +((1 - lam) * total)


def response_quantile(p, rho):
    if 1 - rho >= p:
        return mpmath.mpf(1)
    low, high = mpmath.mpf(0), mpmath.mpf(1)
    while waiting_cdf(high, rho) < p:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if waiting_cdf(middle, rho) >= p:
            high = middle
        else:
            low = middle
    return high + 1


def simulate(rho, customers=4_000_000, warmup=100_000, batches=20, seed=38):
    rng = numpy.random.default_rng(seed)
    gaps = rng.exponential(1 / rho, customers + warmup)
    waits = numpy.empty(customers + warmup)
    w = 0.0
    for n, gap in enumerate(gaps):
        waits[n] = w
        w = max(0.0, w + 1.0 - gap)
    responses = waits[warmup:] + 1.0
    # Successive customers' waits are correlated (long busy periods near ρ = 1): the interval of each quantile is
    # from batch means, the quantile of each of `batches` consecutive stretches, with Student's t.
    parts = numpy.array_split(responses, batches)
    result = {}
    for p in QUANTILES:
        per_batch = numpy.array([numpy.quantile(part, p) for part in parts])
        half = stats.t.ppf(0.975, batches - 1) * per_batch.std(ddof=1) / math.sqrt(batches)
        value = float(numpy.quantile(responses, p))
        result[str(p)] = {"value": value, "low": value - half, "high": value + half}
    return result


def main():
    out = {"service_ms": 1, "exact": {}, "cdf": {}, "simulated": {}}
    for rho in RHOS:
        out["exact"][str(rho)] = {str(p): float(response_quantile(p, rho)) for p in QUANTILES}
        out["cdf"][str(rho)] = {str(t): float(waiting_cdf(t, rho)) for t in CDF_POINTS}
        out["simulated"][str(rho)] = simulate(rho)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
