#!/usr/bin/env python3
"""Reference values for runner/stats/mcb.js (multiple comparisons with the best), computed independently with
NumPy and SciPy; test/unit/stats/mcb-scipy.test.js compares mcb.js with them.

    pip install numpy scipy
    python3 scripts/mcb-scipy.py          # writes test/fixtures/stats/mcb-scipy.json

The fixture is committed, so the unit tests (and CI) need no Python; run this again only when a case is added or the
definition of a method changes. Independent of mcb.js's algebra: the two-way fit is numpy.linalg.lstsq on the full
dummy design (one column per setting and per round, rank-deficient, min-norm solution), standard errors come from
pinv(XᵀX), leverages and the residual maker M = I − X·pinv(X) from the hat matrix, each setting's own residual
variance by solving E[S_l] = Σ_m (Σ M²) σ_m² with numpy.linalg.solve, the blocked-Welch weights from pinv(X), t
quantiles from scipy.stats.t.ppf, the exact group-sequential levels of runner/stats/alpha-spending.js from the joint
normal CDF (scipy.stats.multivariate_normal). The samples are drawn once from a seeded generator and written into the fixture with the
expected figures.
"""
import json
import math
from pathlib import Path

import numpy as np
from scipy import optimize, stats

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / 'test/fixtures/stats/mcb-scipy.json'
METHODS = ['pooled', 'paired', 'hybrid', 'blocked-welch', 'welch']
HYBRID_SD_RATIO = 2.0
WINSORIZE_AT = 2.5
ALPHA = 0.05


def make_cases():
    rng = np.random.default_rng(20261126)

    def values(level, rounds, sd, shifts, spikes=None):
        spikes = spikes or {}
        return [
            {'round': r, 'value': round(level * math.exp(shifts[r] + sd * rng.standard_normal()) * spikes.get(r, 1.0), 3)}
            for r in rounds
        ]

    shifts = {r: 0.05 * rng.standard_normal() for r in range(1, 13)}
    cases = []
    cases.append({
        'name': 'k2 balanced, 6 rounds',
        'lowerIsBetter': True,
        'settings': [
            {'id': 'pool-1', 'values': values(1000, range(1, 7), 0.03, shifts)},
            {'id': 'pool-2', 'values': values(1030, range(1, 7), 0.03, shifts)},
        ],
    })
    cases.append({
        'name': 'k3 unbalanced: c stopped after round 4, a lost round 2',
        'lowerIsBetter': True,
        'settings': [
            {'id': 'a', 'values': values(1000, [1, 3, 4, 5, 6, 7, 8], 0.04, shifts)},
            {'id': 'b', 'values': values(1020, range(1, 9), 0.04, shifts)},
            {'id': 'c', 'values': values(1150, range(1, 5), 0.04, shifts)},
        ],
    })
    cases.append({
        'name': 'k4 balanced, one +60% spike',
        'lowerIsBetter': True,
        'settings': [
            {'id': 'p1', 'values': values(2000, range(1, 6), 0.02, shifts)},
            {'id': 'p2', 'values': values(1950, range(1, 6), 0.02, shifts, {3: 1.6})},
            {'id': 'p4', 'values': values(1960, range(1, 6), 0.02, shifts)},
            {'id': 'p8', 'values': values(2050, range(1, 6), 0.02, shifts)},
        ],
    })
    race_rounds = [list(range(1, 11)), list(range(1, 4)), list(range(1, 11)), list(range(1, 9)), [1, 2, 3], [1, 2, 3]]
    race = [
        {'id': f's{i + 1}', 'values': values(level, rounds, 0.05, shifts)}
        for i, (level, rounds) in enumerate(zip([1040, 1300, 1000, 1010, 1100, 1080], race_rounds))
    ]
    # A disturbed run made again in the same round: two values of s3 in round 5.
    race[2]['values'].append(values(1000, [5], 0.05, shifts)[0])
    cases.append({'name': 'k6 race: settings stopped at rounds 3 and 8, a re-run in round 5', 'lowerIsBetter': True,
                  'settings': race})
    cases.append({
        'name': 'rate (req/s, higher is better), k3',
        'lowerIsBetter': False,
        'settings': [
            {'id': 'w0', 'values': values(5000, range(1, 6), 0.03, shifts)},
            {'id': 'w1', 'values': values(5200, range(1, 6), 0.03, shifts)},
            {'id': 'w2', 'values': values(5150, range(1, 6), 0.03, shifts)},
        ],
    })
    cases.append({
        'name': 'k4, the cheap setting three times as noisy',
        'lowerIsBetter': True,
        'settings': [
            {'id': 'cheap', 'values': values(1010, range(1, 8), 0.09, shifts)},
            {'id': 'm2', 'values': values(1000, range(1, 8), 0.03, shifts)},
            {'id': 'm4', 'values': values(1005, range(1, 8), 0.03, shifts)},
            {'id': 'm8', 'values': values(1030, range(1, 8), 0.03, shifts)},
        ],
    })
    return cases


def fit_two_way(observations, k):
    """Least squares y = μ_setting + β_round + e on the full dummy design."""
    rounds = sorted({r for _, r, _ in observations})
    index = {r: i for i, r in enumerate(rounds)}
    X = np.zeros((len(observations), k + len(rounds)))
    for o, (s, r, _) in enumerate(observations):
        X[o, s] = 1.0
        X[o, k + index[r]] = 1.0
    y = np.array([v for _, _, v in observations])
    coef, _, rank, _ = np.linalg.lstsq(X, y, rcond=None)
    residuals = y - X @ coef
    pinv = np.linalg.pinv(X)
    M = np.eye(len(observations)) - X @ pinv
    leverage = np.diag(M).copy()
    return {'X': X, 'y': y, 'coef': coef, 'residuals': residuals, 'df': len(observations) - rank,
            'cov': np.linalg.pinv(X.T @ X), 'pinv': pinv, 'leverage': leverage, 'M': M}


def setting_variances(fit, owner, k):
    """Each setting's residual variance: biased S_s / nu_s, or (three settings and up) the solution of
    E[S_l] = sum_m A_lm sigma_m^2 with A_lm = sum over runs o of l, o' of m of M[o, o']^2, cut at 0."""
    rss = [float(np.sum(fit['residuals'][[o for o in range(len(owner)) if owner[o] == s]] ** 2)) for s in range(k)]
    nu = [float(np.sum(fit['leverage'][[o for o in range(len(owner)) if owner[o] == s]])) for s in range(k)]
    biased = [rss[s] / nu[s] if nu[s] > 1e-9 else None for s in range(k)]
    present = sorted(set(owner))
    if len(present) < 3:
        return biased
    M2 = fit['M'] ** 2
    A = np.array([[M2[np.ix_([o for o in range(len(owner)) if owner[o] == l],
                             [o for o in range(len(owner)) if owner[o] == m])].sum() for m in present] for l in present])
    solved = np.linalg.solve(A, np.array([rss[s] for s in present]))
    out = list(biased)
    for i, s in enumerate(present):
        out[s] = max(0.0, float(solved[i]))
    return out


def winsorize(observations, fit):
    """One pass, each setting on its own robust scale (1.4826 MAD of its standardised residuals, three at least)."""
    if fit['df'] < 1:
        return observations, 0
    out = list(observations)
    pulled = 0
    for s in sorted({s for s, _, _ in observations}):
        usable = [o for o in range(len(observations)) if observations[o][0] == s and fit['leverage'][o] > 1e-9]
        if len(usable) < 3:
            continue
        z = np.array([fit['residuals'][o] / math.sqrt(fit['leverage'][o]) for o in usable])
        spread = 1.4826 * np.median(np.abs(z - np.median(z)))
        if not spread > 0:
            continue
        for o in usable:
            limit = WINSORIZE_AT * spread * math.sqrt(fit['leverage'][o])
            e = fit['residuals'][o]
            if abs(e) > limit:
                s_, r, v = out[o]
                out[o] = (s_, r, v + math.copysign(limit, e) - e)
                pulled += 1
    return out, pulled


def spent_by(shape, alpha, n, first, cap):
    if n >= cap:
        return alpha
    if n < first:
        return 0.0
    if shape == 'bonferroni':
        return alpha * (n - first + 1) / (cap - first + 1)
    t = n / cap
    if shape == 'pocock':
        return alpha * math.log(1 + (math.e - 1) * t)
    return 2 - 2 * stats.norm.cdf(stats.norm.ppf(1 - alpha / 2) / math.sqrt(t))


def exact_levels(alpha, first, cap, shape):
    """Each look's nominal one-sided level for Z_n = S_n / sqrt(n), S_n a sum of n standard normals read at
    n = first .. cap, such that the first crossing happens at look n with the spending function's increment.
    Independent of alpha-spending.js's grid: the joint normal CDF of (Z_first .. Z_n) (Genz, scipy.stats)."""
    looks = list(range(first, cap + 1))
    cov = np.array([[math.sqrt(min(a, b) / max(a, b)) for b in looks] for a in looks])
    bounds = []
    for i, n in enumerate(looks):
        target = spent_by(shape, alpha, n, first, cap)
        if i == 0:
            bounds.append(stats.norm.ppf(1 - target))
            continue
        sub = cov[: i + 1, : i + 1]

        def crossed(c):
            upper = np.array(bounds + [c])
            return 1 - stats.multivariate_normal.cdf(upper, mean=np.zeros(i + 1), cov=sub, abseps=1e-6, releps=1e-6,
                                                    rng=np.random.default_rng(1))

        bounds.append(optimize.brentq(lambda c: crossed(c) - target, -2.0, 8.0, xtol=1e-7))
    return [float(1 - stats.norm.cdf(b)) for b in bounds]


def spending_cases():
    cases = [(0.05 / 3, 3, 8, 'pocock'), (0.05 / 3, 3, 8, 'obrien-fleming'), (0.05, 3, 8, 'bonferroni'),
             (0.05, 2, 5, 'pocock')]
    return [{'alpha': alpha, 'from': first, 'cap': cap, 'shape': shape, 'levels': exact_levels(alpha, first, cap, shape)}
            for alpha, first, cap, shape in cases]


def per_round_means(observations, k):
    sums = [dict() for _ in range(k)]
    for s, r, v in observations:
        sums[s].setdefault(r, []).append(v)
    return [{r: float(np.mean(vs)) for r, vs in rounds.items()} for rounds in sums]


def pair_pooled(fit, means, i, j):
    c = np.zeros(fit['X'].shape[1])
    c[i], c[j] = 1.0, -1.0
    s2 = float(fit['residuals'] @ fit['residuals']) / fit['df']
    return {'method': 'pooled', 'n': common(means, i, j), 'D': float(c @ fit['coef']),
            'SE': math.sqrt(s2 * float(c @ fit['cov'] @ c)), 'df': float(fit['df'])}


def pair_blocked_welch(fit, means, i, j, owner, k, variances):
    c = np.zeros(fit['X'].shape[1])
    c[i], c[j] = 1.0, -1.0
    w = c @ fit['pinv']
    variance = 0.0
    denominator = 0.0
    for s in range(k):
        rows = [o for o in range(len(owner)) if owner[o] == s]
        a = float(np.sum(w[rows] ** 2))
        if a < 1e-15:
            continue
        nu = float(np.sum(fit['leverage'][rows]))
        part = a * variances[s]
        variance += part
        denominator += part * part / nu
    if variance == 0:
        return pair_paired(means, i, j)
    return {'method': 'blocked-welch', 'n': common(means, i, j), 'D': float(c @ fit['coef']),
            'SE': math.sqrt(variance), 'df': variance * variance / denominator}


def pair_paired(means, i, j):
    rounds = [r for r in means[i] if r in means[j]]
    d = np.array([means[i][r] - means[j][r] for r in rounds])
    return {'method': 'paired', 'n': len(d), 'D': float(d.mean()), 'SE': float(d.std(ddof=1) / math.sqrt(len(d))),
            'df': float(len(d) - 1)}


def pair_welch(means, i, j):
    x = np.array(list(means[i].values()))
    y = np.array(list(means[j].values()))
    vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    return {'method': 'welch', 'n': min(len(x), len(y)), 'D': float(x.mean() - y.mean()),
            'SE': math.sqrt(vx + vy), 'df': float((vx + vy) ** 2 / (vx ** 2 / (len(x) - 1) + vy ** 2 / (len(y) - 1)))}


def common(means, i, j):
    return sum(1 for r in means[i] if r in means[j])


def analyse(case, method, winsor):
    sign = 1.0 if case['lowerIsBetter'] else -1.0
    k = len(case['settings'])
    observations = [(s, str(v['round']), sign * math.log(v['value']))
                    for s, setting in enumerate(case['settings']) for v in setting['values']]
    fit = fit_two_way(observations, k)
    pulled = 0
    if winsor:
        observations, pulled = winsorize(observations, fit)
        if pulled:
            fit = fit_two_way(observations, k)
    owner = [s for s, _, _ in observations]
    means = per_round_means(observations, k)
    variances = setting_variances(fit, owner, k)
    sds = [None if v is None else math.sqrt(v) for v in variances]
    level = 1 - ALPHA / (k - 1)
    out = []
    for i, setting in enumerate(case['settings']):
        pairs = []
        for j, other in enumerate(case['settings']):
            if j == i:
                continue
            if method == 'pooled':
                p = pair_pooled(fit, means, i, j)
            elif method == 'paired':
                p = pair_paired(means, i, j)
            elif method == 'blocked-welch':
                p = pair_blocked_welch(fit, means, i, j, owner, k, variances)
            elif method == 'welch':
                p = pair_welch(means, i, j)
            else:
                agree = sds[i] > 0 and sds[j] > 0 and max(sds[i], sds[j]) <= HYBRID_SD_RATIO * min(sds[i], sds[j])
                p = pair_pooled(fit, means, i, j) if agree else pair_paired(means, i, j)
            c = float(stats.t.ppf(level, p['df']))
            pairs.append({'id': other['id'], **p, 'c': c, 'upper': p['D'] + c * p['SE'], 'lower': p['D'] - c * p['SE']})
        U, binding = 0.0, None
        for p in pairs:
            if p['upper'] > U:
                U, binding = p['upper'], p['id']
        out.append({'id': setting['id'], 'n': len(means[i]), 'U': U, 'bound_pct': 100 * math.expm1(U),
                    'binding': binding, 'pairs': pairs})
    s2 = float(fit['residuals'] @ fit['residuals']) / fit['df']
    return {'method': method, 'winsorize': winsor, 'winsorized': pulled,
            'fit': {'df': int(fit['df']), 'sd': math.sqrt(s2), 'sds': sds}, 'settings': out}


def main():
    cases = make_cases()
    for case in cases:
        case['expected'] = [analyse(case, method, winsor) for method in METHODS for winsor in (False, True)]
    header = ('Generated by scripts/mcb-scipy.py (NumPy lstsq, SciPy t.ppf): the expected figures of runner/stats/mcb.js '
              'on fixed samples. Do not edit; run the script again.')
    OUT.write_text(json.dumps({'comment': header, 'alpha': ALPHA, 'numpy': np.__version__,
                               'scipy': __import__('scipy').__version__, 'cases': cases,
                               'spending': spending_cases()}, indent=1) + '\n')
    print(f'wrote {OUT.relative_to(ROOT)}: {len(cases)} cases x {len(METHODS)} methods x winsorising off/on, '
          'and the exact spending levels of alpha-spending.js')


if __name__ == '__main__':
    main()
