"""Nobody learns whether another seat had a choice (issue 35 item 9): the frames announcing a
decision and the time until it is applied are the same whether the deciding seat has one option
(a forced decision — taking a Shot with no Missed! in hand) or several.

The reproductions: a spectator told a person's forced decisions from real ones by the ``timer``
field (25 of 25), and a bot's by its pause (112 of 112).  Here every frame of two people and a
spectator is checked by :mod:`tests.noleak.decision_channel`, which labels each decision forced or
real by replaying the record with the rules; and a spectator of a bot match times every decision.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from harness.records import RunStore
from tests.noleak.decision_channel import (
    Decision,
    announcements,
    decision_times,
    decisions_of,
    field_leaks,
    separability,
)

from .server import Client, LiveServer, drive

PAUSE = 0.08  # the table's pause before a bot's move in the timing test (the "normal" speed)


class TimedClient(Client):
    """A client that also keeps when each frame arrived."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.stamped: list[tuple[float, dict[str, Any]]] = []

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        n = len(self.frames)
        frame = super().recv(timeout)
        if len(self.frames) > n:
            self.stamped.append((time.monotonic(), frame))
        return frame


def recorded(run: Path) -> tuple[list[Decision], list[Any]]:
    store = RunStore(run)
    (g,) = store.games()
    start, lines, _end = store.read_game(g.game_id)
    return decisions_of(start.seats, start.mode, start.seed, [d.chosen for d in lines]), lines


def test_frames_are_the_same_for_forced_and_real_decisions(tmp_path: Path) -> None:
    """Two people, three bots and a spectator: for every deciding seat, the frames announcing
    its forced decisions look like those announcing its real ones, to everyone — the deciding
    person included, who is asked every decision of theirs (forced ones too) with the timer
    shown to all."""
    rng = random.Random(3)
    with LiveServer(tmp_path, seed=lambda: 41) as srv:
        ann, bob = Client(srv.ws_url), Client(srv.ws_url)
        ann.send(type="create", name="Ann", settings={"seats": 5})
        code = ann.wait_type("joined")["code"]
        bob.send(type="join", code=code, name="Bob")
        bob.wait_type("joined")
        spectator = Client(srv.ws_url)
        spectator.send(type="watch", code=code)
        spectator.wait_type("joined")
        ann.send(type="start")

        def choose(f: dict[str, Any]) -> str:
            return str(rng.choice(f["ctx"]["decision"]["options"])["id"])

        drive([ann, bob, spectator], choose, timeout=120)
    decisions, lines = recorded(tmp_path / "web")
    leaks: list[str] = []
    for client, who in ((ann, "seat 0"), (bob, "seat 1"), (spectator, "spectator")):
        leaks += field_leaks(client.frames, decisions, who)
    assert not leaks, "\n".join(leaks)
    for person, seat in ((ann, 0), (bob, 1)):
        mine = [d for d in decisions if d.seat == seat]
        assert any(d.forced for d in mine) and any(not d.forced for d in mine), "not vacuous"
        first = announcements(person.frames)
        seen = announcements(spectator.frames)
        for d in mine:  # asked every decision, forced or not, the timer shown to the spectator
            assert first[d.number]["ask"], (d, first[d.number])
            assert seen[d.number]["timer"]["seat"] == seat, (d, seen[d.number])
        answered = [line for line in lines if line.seat == seat]
        assert all(line.fallback is None for line in answered)  # by the person, never for them
    bots = [d for d in decisions if d.seat >= 2]
    assert any(d.forced for d in bots) and any(not d.forced for d in bots)


def test_a_bots_forced_decisions_take_the_same_time_as_its_real_ones(tmp_path: Path) -> None:
    """A spectator of a bot match times each decision from its frame to the next one.  A
    forced decision waits the table's pause as a real one does, so no threshold on the time tells
    them apart (before, forced decisions were applied at once: every one told apart)."""
    pauses = {"slow": PAUSE, "normal": PAUSE, "fast": PAUSE}
    with LiveServer(tmp_path, seed=lambda: 5, pauses=pauses) as srv:
        spectator = TimedClient(srv.ws_url)
        spectator.send(type="watch", settings={"seats": 5})
        spectator.wait_type("over", timeout=240)
    decisions, _ = recorded(tmp_path / "web")
    times = decision_times(spectator.stamped)
    forced = [times[d.number] for d in decisions if d.forced and d.number in times]
    real = [times[d.number] for d in decisions if not d.forced and d.number in times]
    shot = [d for d in decisions if d.forced and d.kind == "respond_shot"]
    assert len(forced) >= 15 and len(real) >= 60 and shot, (len(forced), len(real))
    # each waits the pause (a loaded machine only makes them later)
    assert statistics.median(forced) >= 0.75 * PAUSE, sorted(forced)
    assert statistics.median(real) >= 0.75 * PAUSE, sorted(real)
    told = separability(forced, real)
    assert told < 0.8, (told, sorted(forced), sorted(real))
