"""The decision channel: what a connection's frames and their timing say about how many options
another seat's decision has.

How many options a seat has is that seat's own knowledge (RULES.md §9): a seat that is shot and
has a single option holds no Missed!.  Apart from the deciding seat's own options, nothing a
connection receives may depend on it (issue 35 item 9):

* the **fields** of the frame that announces a decision — which keys the frame and its pending
  decision have, whether the connection is asked, whether a timer shows and for which seat and
  how long — are the same for a forced decision (one option) as for a real one
  (:func:`field_leaks`);
* the **time** from that frame to the next decision's frame (the decision applied) does not tell
  forced decisions from real ones (:func:`decision_times`, :func:`separability`).

Which decisions were forced is found by replaying the game's recorded choices with the engine's
rules (:func:`decisions_of`), never read from the web table's frames or code under test.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.engine import Game


@dataclass(frozen=True, slots=True)
class Decision:
    number: int  # 1-based, as the frames and the record number decisions
    seat: int
    options: int
    kind: str

    @property
    def forced(self) -> bool:
        return self.options == 1


def decisions_of(seats: int, mode: str, seed: int, chosen: Sequence[str]) -> list[Decision]:
    """Every decision of the game dealt by ``Game.new(seats, mode, seed)`` and played with the
    ``chosen`` option ids: its seat, kind and number of legal options."""
    game = Game.new(seats, mode, seed)
    out = []
    for number, option in enumerate(chosen, 1):
        d = game.pending
        assert d is not None, "the record goes on after the game ended"
        ids = d.option_ids
        assert option in ids, f"decision {number}: {option!r} is not an option"
        out.append(Decision(number, d.seat, len(ids), d.kind))
        game.apply(option)
    assert game.pending is None, "the record stops before the game ended"
    return out


def signature(frame: dict[str, Any]) -> tuple[Any, ...]:
    """What a view frame says about its pending decision, besides the deciding seat's own options:
    the frame's keys, whether this connection is asked, the timer's keys, seat and length (not the
    seconds left), the pending decision's keys and seat, and whether options are shown."""
    timer = frame.get("timer")
    pending = frame["ctx"].get("decision") or {}
    return (
        tuple(sorted(frame)),
        frame.get("ask"),
        None if timer is None else (tuple(sorted(timer)), timer.get("seat"), timer.get("total")),
        tuple(sorted(pending)),
        pending.get("seat"),
        bool(pending.get("options")),
    )


def announcements(frames: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The first view frame a connection got for each decision number."""
    first: dict[int, dict[str, Any]] = {}
    for f in frames:
        if f.get("type") == "view":
            first.setdefault(f["decision"], f)
    return first


def field_leaks(
    frames: Sequence[dict[str, Any]], decisions: Sequence[Decision], who: str
) -> list[str]:
    """For each deciding seat: the signatures of the frames announcing its forced decisions must
    be exactly those announcing its real ones (one line per seat where they differ)."""
    sigs: dict[tuple[int, bool], set[tuple[Any, ...]]] = defaultdict(set)
    first = announcements(frames)
    for d in decisions:
        if d.number in first:
            sigs[(d.seat, d.forced)].add(signature(first[d.number]))
    leaks = []
    for seat in sorted({s for s, _ in sigs}):
        forced, real = sigs.get((seat, True), set()), sigs.get((seat, False), set())
        if forced and real and forced != real:
            leaks.append(
                f"{who}: seat {seat}'s forced decisions are announced as {sorted(forced - real)}, "
                f"its real ones as {sorted(real - forced)}"
            )
    return leaks


def decision_times(stamped: Sequence[tuple[float, dict[str, Any]]]) -> dict[int, float]:
    """Per decision number: seconds from the first frame announcing it to the first frame of a
    later decision (or of the game's end), as one connection received them (``(arrival time,
    frame)`` pairs)."""
    first: dict[int, float] = {}
    for t, f in stamped:
        if f.get("type") == "view":
            first.setdefault(f["decision"], t)
    numbers = sorted(first)
    return {k: first[nxt] - first[k] for k, nxt in zip(numbers, numbers[1:], strict=False)}


def separability(a: Sequence[float], b: Sequence[float]) -> float:
    """How well one threshold on a value tells ``a`` from ``b``: the best balanced accuracy
    (mean of the two classes' hit rates) over every threshold and both directions — 0.5 when
    the values say nothing, 1.0 when every ``a`` lies on one side of every ``b``."""
    if not a or not b:
        return 0.5
    points = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    best = 0.5
    below = [0, 0]
    for i, (x, label) in enumerate(points):
        below[label] += 1
        if i + 1 < len(points) and points[i + 1][0] == x:
            continue
        acc = (below[0] / len(a) + (len(b) - below[1]) / len(b)) / 2
        best = max(best, acc, 1 - acc)
    return best
