"""What a rebuild fits from the data itself: the home edge (with its held-out test) and the
deciding game's chance at one game all; and the scores that judge a forecast."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import attrs

from svc.rating.model import Forecast, Q, Settings, rated

MIN_HOME_MATCHES = 30  # fewer held-out home matches than this cannot show an edge
Z_95 = 1.96


@attrs.frozen
class Scores:
    matches: int
    accuracy: float
    log_loss: float
    brier: float


def scores(picked: Iterable[tuple[float, bool]]) -> Scores:
    """Accuracy (a chance of exactly one half counts as half right), log-loss and Brier score
    of (chance of side 1, side 1 won) pairs."""
    n = acc = ll = br = 0.0
    for p, won in picked:
        p = min(1 - 1e-9, max(1e-9, p))
        n += 1
        acc += 0.5 if p == 0.5 else float((p > 0.5) == won)
        ll -= math.log(p if won else 1 - p)
        br += (p - won) ** 2
    if not n:
        return Scores(0, math.nan, math.nan, math.nan)
    return Scores(int(n), acc / n, ll / n, br / n)


def _logit(p: float) -> float:
    p = min(1 - 1e-9, max(1e-9, p))
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _home_matches(rows: list[Any], forecasts: dict[str, Forecast], training: bool, last: int | None):
    for r in rows:
        home = int(r["home1"]) - int(r["home2"])
        if not home or r["id"] not in forecasts or not rated(r["outcome"]):
            continue
        if (last is None or r["day"].year <= last) == training:
            yield _logit(forecasts[r["id"]].chance), home, r["winner"] == 1


def fit_home_edge(s: Settings, rows: list[Any], forecasts: dict[str, Forecast]) -> tuple[float | None, str]:
    """The edge in rating points of a side whose players are all from the host country.

    Fitted by maximum likelihood on the training seasons (a shift of the logit of the chances a
    pass without an edge gave); kept only when, on the held-out seasons, it lowers the log-loss of
    the home matches by more than 1.96 standard errors of the per-match differences. Returns the
    edge (None when not kept) and the test's description."""
    train = list(_home_matches(rows, forecasts, True, s.trained_to))
    test = list(_home_matches(rows, forecasts, False, s.trained_to))
    if not train or len(test) < MIN_HOME_MATCHES:
        return None, (
            f"not tested: {len(train)} training and {len(test)} held-out home matches "
            f"(at least {MIN_HOME_MATCHES} held out needed)"
        )
    shift = 0.0  # in logit units; Newton's method on the log-likelihood
    for _ in range(30):
        grad = hess = 0.0
        for x, home, won in train:
            p = _sigmoid(x + shift * home)
            grad += (won - p) * home
            hess -= p * (1 - p)
        if hess == 0:
            break
        step = grad / hess
        shift -= step
        if abs(step) < 1e-7:
            break
    diffs = []
    for x, home, won in test:
        p0, p1 = _sigmoid(x), _sigmoid(x + shift * home)
        diffs.append(-math.log(p0 if won else 1 - p0) + math.log(p1 if won else 1 - p1))
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs)) if len(diffs) > 1 else math.inf
    edge = shift / Q
    verdict = (
        f"fitted on {len(train)} home matches of the training seasons: {edge:+.1f} points; on {len(test)} "
        f"held-out home matches it changes log-loss by {-mean:+.4f} (standard error {se:.4f})"
    )
    if mean > Z_95 * se:
        return round(edge, 1), verdict + ": kept"
    return None, verdict + ": no edge shown (needs an improvement over 1.96 standard errors)"


def fit_decider(s: Settings, rows: list[Any], forecasts: dict[str, Forecast]) -> tuple[float, float, float]:
    """Side 1's chance of the third game at one game all: a logistic on the logit of the
    pre-match chance and the point difference of the first two games, fitted (Newton's method)
    on the training seasons' matches that went to a third game."""
    xs: list[tuple[float, float, bool]] = []  # logit of the chance, point difference, side 1 won
    for r in rows:
        g1, g2 = r["g1"], r["g2"]
        if r["outcome"] != "played" or len(g1) != 3 or r["id"] not in forecasts:
            continue
        if s.trained_to is not None and r["day"].year > s.trained_to:
            continue
        if (g1[0] > g2[0]) == (g1[1] > g2[1]):
            continue
        xs.append((_logit(forecasts[r["id"]].chance), float(g1[0] + g1[1] - g2[0] - g2[1]), g1[2] > g2[2]))
    if len(xs) < 50:
        return s.decider
    beta = [0.0, 1.0, 0.0]
    for _ in range(25):
        # the gradient and the (symmetric) Hessian of the log-likelihood, written out term by term:
        # the full scale has some 10^5 deciders, and nested loops over 3 x 3 cost seconds per step
        b0, b1, b2 = beta
        g0 = g1 = g2 = h00 = h01 = h02 = h11 = h12 = h22 = 0.0
        for lo, diff, won in xs:
            p = _sigmoid(b0 + b1 * lo + b2 * diff)
            w = p * (1 - p)
            e = won - p
            g0 += e
            g1 += e * lo
            g2 += e * diff
            h00 += w
            h01 += w * lo
            h02 += w * diff
            h11 += w * lo * lo
            h12 += w * lo * diff
            h22 += w * diff * diff
        step = _solve([[h00, h01, h02], [h01, h11, h12], [h02, h12, h22]], [g0, g1, g2])
        if step is None:
            break
        beta = [b + d for b, d in zip(beta, step)]
        if max(abs(d) for d in step) < 1e-8:
            break
    return tuple(round(b, 5) for b in beta)  # type: ignore[return-value]


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """Gaussian elimination for a small dense system; None when singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[pivot][c]) < 1e-12:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]
