"""How well two move analyses of the same decisions agree: on the best option and on the loss.

The two analyses (:class:`.run_moves.MovesLine` per game, e.g. the default and a 64-world
play-out reference with another seed stream) are matched by (game id, decision index); a decision
counts only when both analysed it with the same options.

* **best-option agreement**: the share of decisions where the first analysis's best option is a
  best option of the second (an option tied with the second's best value counts as best, so a
  tie the first broke the other way is not a disagreement);
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
    same_best: int  # of which the first's best option is a best option of the second
    same_label: int
    correlation: float | None  # Pearson, chosen option's loss

    @property
    def best_agreement(self) -> float:
        return self.same_best / self.decisions if self.decisions else math.nan

    @property
    def label_agreement(self) -> float:
        return self.same_label / self.decisions if self.decisions else math.nan


def best_options(move: MoveLine) -> set[str]:
    """The options whose value ties the best (within :data:`TIE`)."""
    top = max(move.values)
    return {o for o, v in zip(move.options, move.values, strict=True) if v >= top - TIE}


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
    same_best = sum(a.best in best_options(b) for a, b in both)
    same_label = sum(a.label == b.label for a, b in both)
    corr = pearson([a.loss for a, _ in both], [b.loss for _, b in both])
    return Agreement(len(both), same_best, same_label, corr)
