"""Deadlines that keep the record (issue 11): with a 3 s decision timer, 32 concurrent games and a
slow server that answers around and after the timer, every decision of a model seat keeps its
model record — the seat's own deadline (a margin that grows with the timer and the event loop's
lag) fires first and the seat hands in its own fallback with the record of its call, instead of
the table's timer cutting it off.  Ruling R-5: the fallback move is the simplest one."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.agents.deadline import LoopLag, seat_margin
from harness.records import RunStore
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer

from .model_league import run_dir, run_league, write_league

pytest.importorskip("openai")


def test_margin_grows_with_the_timer_and_the_loop_lag() -> None:
    assert seat_margin(3.0, lag_s=0.0) == pytest.approx(0.15)
    assert seat_margin(60.0, lag_s=0.0) == pytest.approx(3.0)
    assert seat_margin(3.0, lag_s=0.3) == pytest.approx(1.0)  # 0.1 + 3 x 0.3
    assert seat_margin(3.0, lag_s=5.0) == pytest.approx(1.5)  # at most half the timer
    lag = LoopLag(window_s=5.0)
    lag.note(100.0, 0.4)
    lag.note(101.0, 0.1)
    assert lag.recent_max(101.0) == 0.4
    assert lag.recent_max(105.5) == 0.1  # the 0.4 s lag left the window


def test_no_model_record_is_lost_at_32_games_against_a_slow_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.delay_s, server.script.delay_spread_s = 2.6, 0.6  # answers at 2.6..3.2 s
        cfg = write_league(
            tmp_path / "slow.yaml",
            server,
            name="slow",
            games_per_table=32,
            max_concurrent_games=32,
            providers={"openai": {"concurrency": 32}},
            decision_seconds=3,
            max_consecutive_fallbacks=3,  # every game ends after a few late answers
            max_failed_decisions=10_000,
        )
        assert run_league(cfg) in (0, 3)  # finished (a report may flag the fallbacks)
    store = RunStore(run_dir(cfg))
    games = store.games()
    assert len(games) == 32
    seen = 0
    for g in games:
        for d in store.read_game(g.game_id)[1]:
            if d.player.startswith("model-") and len(d.options) > 1:
                seen += 1
                assert d.model is not None, (g.game_id, d.index, d.fallback, d.error)
                assert d.model["chosen"] == d.chosen and d.model["fallback"] == d.fallback
    assert seen >= 3 * 32
