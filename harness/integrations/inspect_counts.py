"""A model seat's :class:`~harness.league.model_calls.ModelCounts` carried through Inspect AI.

The Inspect task counts each game's model decisions and calls with the league's own
:class:`ModelCounts` (one decision line at a time, exactly as ``league report`` reads a game's
file); a score's metadata holds them as JSON (:func:`counts_json`) and the metrics add the
samples' counts back together (:func:`merged_counts`), so every rate of the Inspect metrics is the
league's rate over the same decisions.  Counters keyed by tuples (fallback causes) become lists of
``[*key, n]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import Any

from harness.runs import ModelCounts

__all__ = ["LABELS", "counts_from_json", "counts_json", "merged_counts"]

LABELS = ("player", "model", "history")  # the fields that say whose counts they are


def counts_json(c: ModelCounts) -> dict[str, Any]:
    """``c`` as JSON-ready values."""
    out: dict[str, Any] = {}
    for f in fields(c):
        value = getattr(c, f.name)
        if isinstance(value, Counter):
            out[f.name] = [
                [*(k if isinstance(k, tuple) else (k,)), n] for k, n in sorted(value.items())
            ]
        elif isinstance(value, list):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def counts_from_json(data: Mapping[str, Any]) -> ModelCounts:
    """The :class:`ModelCounts` of :func:`counts_json`'s output (unknown keys are ignored)."""
    c = ModelCounts(str(data.get("player", "")))
    for f in fields(c):
        if f.name not in data:
            continue
        value = data[f.name]
        current = getattr(c, f.name)
        if isinstance(current, Counter):
            counter: Counter[Any] = Counter()
            for *key, n in value:
                counter[key[0] if len(key) == 1 else tuple(key)] += int(n)
            setattr(c, f.name, counter)
        elif isinstance(current, list):
            setattr(c, f.name, list(value))
        else:
            setattr(c, f.name, value)
    return c


def merged_counts(player: str, parts: Iterable[ModelCounts]) -> ModelCounts:
    """One player's counts over several games: every count added, every list joined."""
    out = ModelCounts(player)
    for part in parts:
        for f in fields(out):
            if f.name in LABELS:
                if getattr(out, f.name) is None:
                    setattr(out, f.name, getattr(part, f.name))
                continue
            mine, theirs = getattr(out, f.name), getattr(part, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif mine is None or theirs is None:  # a count not reported stays unknown
                setattr(out, f.name, None)
            elif isinstance(mine, int | float) and not isinstance(mine, bool):
                setattr(out, f.name, mine + theirs)
    return out
