"""Small statistics in pure Python (no pandas, no scipy): Wilson intervals and a chi-square test.

* :func:`wilson` — the Wilson score interval of a binomial proportion ``k/n``.
* :func:`wilson_share` — the same for a share on an effective (clustered) sample size.
* :func:`clustered_wilson` — the Wilson interval of 1/0 results clustered by deal (or any other
  cluster): ``None`` with fewer than two clusters (reports show "–").
* :func:`t_quantile` — a quantile of Student's t distribution (intervals from few clusters).
* :func:`chi2_sf` — the chi-square survival function (p-value of a statistic).
* :func:`homogeneity` — chi-square test that several win rates ``k_i/n_i`` are equal.
* :func:`percentile` — a nearest-rank percentile (median, p95) of a list, ``None`` when empty.
* :func:`share` — ``k / n``, ``None`` when ``n == 0`` (reports show "–", never NaN).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (95 % for ``z = 1.96``).

    Returns ``(lo, hi)`` with ``0 <= lo <= k/n <= hi <= 1``; ``(0.0, 1.0)`` when ``n == 0``.
    Raises :class:`ValueError` unless ``0 <= k <= n``.
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    return wilson_share(k / n, n, z)


def wilson_share(p: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval of a share ``p`` observed on an *effective* sample size ``n`` (a real
    number: ``seat-games / design effect`` when the observations are clustered, see
    :func:`harness.runs.stats.clustered_wilson`).  ``p`` of 0 or 1 keeps its end closed."""
    if not 0.0 <= p <= 1.0 or n <= 0:
        raise ValueError(f"need 0 <= p <= 1 and n > 0, got p={p}, n={n}")
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    lo = max(0.0, centre - half)
    hi = min(1.0, centre + half)
    if p == 0.0:
        lo = 0.0
    if p == 1.0:
        hi = 1.0
    return (lo, hi)


def clustered_wilson(
    values: Sequence[float], clusters: Sequence[Hashable]
) -> tuple[float, float] | None:
    """The 95 % Wilson interval of the share of 1s in ``values`` when they come in ``clusters``
    (the games of one deal, docs/statistics.md).  The sample size is divided by the design effect
    ``deff = G/(G−1) · Σ_g (Σ_{i∈g} (x_i − p))² / (n·p(1−p))``, the clustered variance of the
    share (as :func:`harness.runs.stats._clustered_mean` estimates it, ``G`` clusters) over the
    binomial one, and the Wilson interval is taken on that effective size with the quantile of
    Student's t with ``G − 1`` degrees of freedom (:func:`t_quantile`) in place of 1.96: the
    variance is estimated from ``G`` clusters only.  ``deff`` below 1 is kept: a paired league
    deals every player each seat of a deal once, so its results vary less than coin flips would.
    A share of 0 or 1 has no spread to measure ``deff`` on; its effective size is then ``G``
    (each cluster one result, the most a cluster can weigh).  ``None`` with fewer than two
    clusters: one cluster says nothing about how results vary between deals."""
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values for {len(clusters)} clusters")
    sums: dict[Hashable, float] = {}
    for c in clusters:
        sums.setdefault(c, 0.0)
    g = len(sums)
    if g < 2:
        return None
    n = len(values)
    p = sum(values) / n
    for x, c in zip(values, clusters, strict=True):
        sums[c] += x - p
    z = t_quantile(0.975, g - 1)
    spread = n * p * (1.0 - p)
    if spread <= 0.0:
        return wilson_share(min(1.0, max(0.0, p)), g, z)
    deff = g / (g - 1) * sum(e * e for e in sums.values()) / spread
    if deff <= 0.0:  # every deal exactly at the mean (no spread measured): the plain size
        return wilson_share(p, n, z)
    return wilson_share(p, n / deff, z)


def t_quantile(q: float, df: float) -> float:
    """The ``q``-quantile of Student's t distribution with ``df`` degrees of freedom
    (``0 < q < 1``, ``df > 0``), by bisection on its distribution function to 1e-12."""
    if not 0.0 < q < 1.0 or df <= 0:
        raise ValueError(f"need 0 < q < 1 and df > 0, got q={q}, df={df}")
    if q < 0.5:
        return -t_quantile(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < q:
        lo, hi = hi, 2.0 * hi
    while hi - lo > 1e-12 * max(1.0, hi):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _beta_i(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def _beta_i(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` (continued fraction; Numerical
    Recipes §6.4)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
        + b * math.log(1.0 - x)
    )  # fmt: skip
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def _beta_cf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 500):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (tiny if abs(d) < tiny else d)
            c = 1.0 + num / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def chi2_sf(x: float, df: int) -> float:
    """``P(X >= x)`` for a chi-square variable with ``df`` degrees of freedom (``df >= 1``)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma ``Q(a, x)`` (series below ``a+1``, else a continued
    fraction; Numerical Recipes §6.2)."""
    gln = math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        ap = a
        for _ in range(500):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-14:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - gln) * h)


def homogeneity(wins: Sequence[int], games: Sequence[int]) -> tuple[float, int, float]:
    """Chi-square test of equal proportions across groups: ``(statistic, df, p_value)``.

    Groups with no games are skipped; with fewer than two groups, or a pooled rate of 0 or 1,
    the rates cannot differ and the result is ``(0.0, 0, 1.0)``.
    """
    pairs = [(k, n) for k, n in zip(wins, games, strict=True) if n > 0]
    if len(pairs) < 2:
        return (0.0, 0, 1.0)
    k_all = sum(k for k, _ in pairs)
    n_all = sum(n for _, n in pairs)
    p = k_all / n_all
    if p in (0.0, 1.0):
        return (0.0, 0, 1.0)
    stat = 0.0
    for k, n in pairs:
        e1, e0 = n * p, n * (1.0 - p)
        stat += (k - e1) ** 2 / e1 + ((n - k) - e0) ** 2 / e0
    df = len(pairs) - 1
    return (stat, df, chi2_sf(stat, df))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank ``q``-quantile (``0 <= q <= 1``) of ``values``; ``None`` when empty.

    ``percentile(xs, 0.5)`` is the lower median, ``percentile(xs, 0.95)`` the p95.
    """
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must be in [0, 1], got {q}")
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return float(ordered[rank - 1])


def share(k: float, n: float) -> float | None:
    """``k / n``, or ``None`` when there is nothing to divide by."""
    return k / n if n else None
