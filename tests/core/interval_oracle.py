"""The 95% score interval of a proportion, found the slow way: the tests' oracle for the arena's `wilson`.

The Wilson interval is, by definition, the set of proportions p that the score test does not reject
at 5%: (k/n - p)^2 <= z^2 p (1 - p) / n. `score_interval` finds the two ends of that set by bisection,
without the closed form the arena uses, so the two can disagree if the closed form is wrong.
"""
from __future__ import annotations

Z95 = 1.959963984540054   # the 97.5% quantile of the standard normal distribution


def score_interval(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    phat = k / n

    def accepted(p: float) -> bool:
        return (phat - p) ** 2 <= z * z * p * (1 - p) / n

    def edge(inside: float, outside: float) -> float:
        for _ in range(100):
            mid = (inside + outside) / 2
            if accepted(mid):
                inside = mid
            else:
                outside = mid
        return inside

    lo = 0.0 if accepted(0.0) else edge(phat, 0.0)
    hi = 1.0 if accepted(1.0) else edge(phat, 1.0)
    return lo, hi
