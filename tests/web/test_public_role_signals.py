"""Claims and marks about a public role (issue 35 item 12): at the web table the Marshal's claim
and a mark on the Marshal are refused with a clear message, and the signal scores of older records
that hold them leave them out instead of counting them as 0 % honest / 0 % accurate."""

from __future__ import annotations

from pathlib import Path

from harness.engine import Game
from harness.records import RunStore
from harness.records.signal_records import SIGNALS_FILE, GameSignals, SignalRecord
from harness.runs import signal_table
from harness.web.signal_board import MIN_INTERVAL_S

from .server import Client, LiveServer, drive
from .test_bad_input import expect_error

SEED = 5  # a 4-seat classic deal with the Marshal in seat 0


def test_the_marshals_claim_and_a_mark_on_the_marshal_are_refused(tmp_path: Path) -> None:
    assert Game.new(4, "classic", SEED).seats[0].role == "marshal"
    with LiveServer(tmp_path, seed=lambda: SEED) as srv:
        ann, bob = Client(srv.ws_url), Client(srv.ws_url)
        ann.send(type="create", name="Ann", settings={"seats": 4})
        code = ann.wait_type("joined")["code"]
        bob.send(type="join", code=code, name="Bob")
        bob.wait_type("joined")
        ann.send(type="start")
        ann.wait_type("view")
        ann.send(type="signal", kind="claim", role="deputy")  # the Marshal claims "Deputy"
        error = expect_error(ann, "public_role")
        assert error["message"] == "your role is public: a claim is about a hidden role"
        bob.send(type="signal", kind="mark", target=0, role="raider")  # marks the Marshal
        error = expect_error(bob, "public_role")
        assert error["message"] == "that player's role is public: a mark is about a hidden role"
        # what stays allowed: the Marshal marks a hidden role, Bob claims and marks one
        ann.send(type="signal", kind="mark", target=1, role="raider")
        bob.send(type="signal", kind="claim", role="deputy")
        bob.wait(lambda f: f["type"] == "signal" and f["signal"]["seat"] == 1)
        ann.wait(lambda f: f["type"] == "signal" and f["signal"]["seat"] == 0)
        board = srv.registry.rooms[code].match.signals  # type: ignore[union-attr]
        kept = [(r.seat, r.kind, r.role, r.target) for r in board.records]
        assert sorted(kept) == [(0, "mark", "raider", 1), (1, "claim", "deputy", None)]


def test_reports_leave_out_old_claims_and_marks_about_the_marshal(tmp_path: Path) -> None:
    """A record written before the refusal: the Marshal's claim and a mark on the Marshal do not
    count; the other signals of the game still do."""
    with LiveServer(tmp_path, seed=lambda: SEED) as srv:
        ann = Client(srv.ws_url)
        ann.send(type="create", name="Ann", settings={"seats": 4}, play=True)
        drive([ann])
    run = tmp_path / "web"
    (g,) = RunStore(run).games()
    marshal = next(o.seat for o in g.seat_outcomes if o.role == "marshal")
    other = next(o.seat for o in g.seat_outcomes if o.role != "marshal")
    third = next(o.seat for o in g.seat_outcomes if o.seat not in (marshal, other))

    def rec(index: int, seat: int, kind: str, role: str, target: int | None) -> SignalRecord:
        return SignalRecord(index=index, seat=seat, kind=kind, role=role, target=target,
                            event_index=0, t=index * MIN_INTERVAL_S)  # fmt: skip

    old = GameSignals(game_id=g.game_id, signals=[
        rec(1, marshal, "claim", "deputy", None),  # 0 % honest, were it counted
        rec(2, other, "mark", "raider", marshal),  # 0 % accurate, were it counted
        rec(3, other, "mark", "loner", third),  # counted
    ])  # fmt: skip
    (run / SIGNALS_FILE).write_text(old.model_dump_json() + "\n", encoding="utf-8")
    table = signal_table(run)
    roles = {o.seat: o.role for o in g.seat_outcomes}
    assert list(zip(table["role"], table["claims"], table["marks"], strict=True)) == [
        (roles[other], 0, 1)
    ]
    assert "marshal" not in set(table["role"])
