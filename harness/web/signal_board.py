"""Table signals (RULES.md §10, seed 001 "Сигналы столу"): canned messages between people.

Role claims ("I am a Deputy / Raider / Loner", bluffing allowed), marks ("I think X is …", shown
above X's portrait) and reactions.  A person may send at most one signal per
:data:`MIN_INTERVAL_S` and :data:`MAX_PER_MATCH` per match; claims and marks only while alive
and about hidden roles (the Marshal claims nothing and is never marked), reactions also after
elimination (the rules shared with model seats:
:func:`harness.agents.table_signals.check_signal`).  Signals go to people and spectators only: the
board is server state that no :class:`~harness.agents.seat_protocol.Agent` is ever given, so bots and model
seats at the web table neither see nor send them.  Every accepted signal is kept for the game's
record (:mod:`harness.records.signal_records`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.agents.table_signals import MAX_PER_MATCH, SignalRefused, check_signal
from harness.records.signal_records import SignalRecord

__all__ = ["MAX_PER_MATCH", "MIN_INTERVAL_S", "SignalBoard", "SignalRecord", "SignalRefused"]

MIN_INTERVAL_S = 1.2


@dataclass
class SignalBoard:
    """The signals of one match; ``clock`` is injectable for tests."""

    n_seats: int
    clock: Callable[[], float] = time.monotonic
    started: float = field(default=0.0)
    records: list[SignalRecord] = field(default_factory=list)
    marks: dict[tuple[int, int], str] = field(default_factory=dict)  # (marker, target) -> role
    claims: dict[int, str] = field(default_factory=dict)  # seat -> claimed role
    _last: dict[int, float] = field(default_factory=dict)
    _count: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def add(
        self,
        seat: int,
        kind: str,
        *,
        alive: bool,
        event_index: int,
        role: str | None = None,
        target: int | None = None,
        reaction: str | None = None,
        target_alive: bool = True,
        public: Sequence[bool] = (),
    ) -> SignalRecord:
        """Accept one signal from ``seat`` or raise :class:`SignalRefused` (nothing changes);
        ``public``: by seat, whether its role is public
        (:func:`~harness.agents.table_signals.public_seats`)."""
        now = self.clock()
        if self._count.get(seat, 0) >= MAX_PER_MATCH:
            raise SignalRefused("signal_limit", f"at most {MAX_PER_MATCH} signals per match")
        last = self._last.get(seat)
        if last is not None and now - last < MIN_INTERVAL_S:
            raise SignalRefused("signal_too_fast", f"at most one signal every {MIN_INTERVAL_S:g} s")
        check_signal(
            seat, kind, n_seats=self.n_seats, alive=alive, sent=self._count.get(seat, 0),
            role=role, target=target, reaction=reaction, target_alive=target_alive, public=public,
        )  # fmt: skip
        self._last[seat] = now
        self._count[seat] = self._count.get(seat, 0) + 1
        rec = SignalRecord(
            index=len(self.records) + 1,
            seat=seat,
            kind=kind,
            role=role,
            target=target,
            reaction=reaction,
            event_index=event_index,
            t=round(now - self.started, 3),
        )
        self.records.append(rec)
        if kind == "claim" and role is not None:
            self.claims[seat] = role
        elif kind == "mark" and role is not None and target is not None:
            self.marks[(seat, target)] = role
        return rec

    def state(self) -> dict[str, Any]:
        """Current claims and marks (what a reconnecting person must see again)."""
        return {
            "claims": [{"seat": s, "role": r} for s, r in sorted(self.claims.items())],
            "marks": [
                {"seat": m, "target": t, "role": r} for (m, t), r in sorted(self.marks.items())
            ],
            "left": {str(s): MAX_PER_MATCH - c for s, c in self._count.items()},
        }
