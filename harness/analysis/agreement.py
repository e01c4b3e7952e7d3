"""How well two move analyses of the same decisions agree: on the best option and on the loss.

The two analyses (:class:`.run_moves.MovesLine` per game, e.g. the default and a 64-world
play-out reference with another seed stream) are matched by (game id, decision index); a decision
counts only when both analysed it with the same options.

* **best-option agreement**: the share of decisions where a best option of the first analysis is
  a best option of the second (an option tied with an analysis's best value counts as best, on
  either side: an analysis of 16–64 worlds gives values in steps of 1/worlds, so ties are common,
  and the stored ``best`` is merely the first of the tied options in option order);
* **within the reference's noise**: the share of decisions where a best option of the first is
  within twice the reference's paired standard error of the reference's best (the reference cannot
  tell them apart, or they are the same option) — beside the strict measure, because a play-out
  reference of 64 worlds has a standard error near 0.06 on each value and often cannot separate
  its best option from the next;
* **agreement where the reference has a clear best**: over the decisions where the reference's
  best option is more than twice its paired standard error above every other option, the share
  where it is a best option of the first (None when there is no such decision);
* **loss correlation**: Pearson's correlation of the chosen option's loss between the two (None
  when either side's losses are all equal, or fewer than two decisions);
* **label agreement**: the share of decisions given the same label (inaccuracy, mistake, blunder
  or none).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from .run_moves import MoveLine, MovesLine

TIE = 1e-9  # values closer than this are tied


@dataclass(frozen=True)
class Agreement:
    decisions: int  # decisions both analysed with the same options
    same_best: int  # of which a best option of the first is a best option of the second
    same_label: int
    correlation: float | None  # Pearson, chosen option's loss
    within_noise: int = 0  # a best of the first within 2 paired SE of the second's best value
    clear: int = 0  # decisions where the second's best is separated from every other option
    same_clear_best: int = 0  # of which the second's best is a best of the first

    @property
    def best_agreement(self) -> float:
        return self.same_best / self.decisions if self.decisions else math.nan

    @property
    def noise_agreement(self) -> float:
        return self.within_noise / self.decisions if self.decisions else math.nan

    @property
    def clear_agreement(self) -> float:
        return self.same_clear_best / self.clear if self.clear else math.nan

    @property
    def label_agreement(self) -> float:
        return self.same_label / self.decisions if self.decisions else math.nan


def best_options(move: MoveLine) -> set[str]:
    """The options whose value ties the best (within :data:`TIE`)."""
    top = max(move.values)
    return {o for o, v in zip(move.options, move.values, strict=True) if v >= top - TIE}


def gap_se(move: MoveLine, option: str) -> float:
    """The standard error of ``move``'s best value minus ``option``'s: the paired one when stored,
    else from the two values' standard errors as if independent (larger than the paired one),
    else 0."""
    i = move.options.index(option)
    if move.gap_ses is not None:
        return move.gap_ses[i]
    if move.ses is not None:
        return math.hypot(move.ses[move.options.index(move.best)], move.ses[i])
    return 0.0


def within_noise(move: MoveLine, option: str) -> bool:
    """Whether ``option``'s value is within twice the paired standard error of ``move``'s best."""
    gap = max(move.values) - move.values[move.options.index(option)]
    return gap <= TIE or gap <= 2.0 * gap_se(move, option)


def clear_best(move: MoveLine) -> str | None:
    """``move``'s best option when every other option's value is more than twice the paired
    standard error below it (None: the analysis cannot single out its best)."""
    best = move.best
    others = [o for o in move.options if o != best]
    return None if any(within_noise(move, o) for o in others) else best


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's correlation of paired lists; None for fewer than two pairs or a constant side."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0.0 or syy == 0.0:
        return None
    return sxy / math.sqrt(sxx * syy)


def pairs(
    first: Mapping[str, MovesLine], second: Mapping[str, MovesLine]
) -> list[tuple[MoveLine, MoveLine]]:
    """The decisions both analysed with the same options, as (first's, second's), in game and
    decision order."""
    out = []
    for gid in sorted(first.keys() & second.keys()):
        theirs = {m.index: m for m in second[gid].decisions}
        for m in first[gid].decisions:
            o = theirs.get(m.index)
            if o is not None and o.options == m.options and o.chosen == m.chosen:
                out.append((m, o))
    return out


def agreement(first: Mapping[str, MovesLine], second: Mapping[str, MovesLine]) -> Agreement:
    """The agreement of ``first`` with ``second`` (the reference) over their common decisions."""
    both = pairs(first, second)
    same_best = sum(bool(best_options(a) & best_options(b)) for a, b in both)
    same_label = sum(a.label == b.label for a, b in both)
    corr = pearson([a.loss for a, _ in both], [b.loss for _, b in both])
    near = sum(any(within_noise(b, o) for o in best_options(a)) for a, b in both)
    clear = [(a, c) for a, b in both if (c := clear_best(b)) is not None]
    same_clear = sum(c in best_options(a) for a, c in clear)
    return Agreement(len(both), same_best, same_label, corr, near, len(clear), same_clear)
