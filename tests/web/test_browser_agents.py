"""The web table seats external agents like models, in a real browser (headless chromium): the
host seats a remote agent (the reference server of ``examples/remote_agent_server.py`` on
127.0.0.1) and a Python agent, fills the last seat with a bot and plays a whole game through the
page; the finished game records the agents with their own kinds and their decision records."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.records import RunStore
from tests.agents_external.servers import reference_server
from tests.browser import ARTIFACTS, launch, require_chromium

from .server import LiveServer
from .test_browser import click_an_option, over, watch_problems

require_chromium()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_the_host_seats_a_remote_and_a_python_agent(tmp_path: Path, browser: Any) -> None:
    problems: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    with reference_server() as url:
        players = [
            {"name": "rem", "kind": "remote", "url": url},
            {"name": "py", "kind": "agent", "agent": "tests.agents_external.agents:seeded"},
        ]
        with LiveServer(tmp_path, players=players, seed=lambda: 7) as srv:
            ann = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
            watch_problems(ann, problems)
            ann.goto(srv.url)
            ann.fill("#in-name", "Ann")
            ann.select_option("#in-seats", "4")
            ann.select_option("#in-time", "15")
            ann.select_option("#in-speed", "fast")
            ann.click("#btn-create")
            ann.wait_for_selector("#lobby:not([hidden])")
            code = ann.inner_text("#room-code")
            for seat, player, label in ((1, "rem", f"remote/{url}"), (2, "py", "agent/tests")):
                row = f'#lobby-seats tr[data-seat="{seat}"]'
                ann.select_option(f"{row} select.pick", player)
                ann.click(f"{row} button.seat-bot")
                ann.wait_for_selector(f'{row} td.kind:has-text("{label}")')
            ann.click("#btn-fill")
            ann.wait_for_selector('#lobby-seats tr[data-seat="3"] td.kind:text("bot")')
            ann.click("#btn-start")
            ann.wait_for_selector("#table:not([hidden])")
            assert f"remote/{url}" in ann.inner_text('.seat[data-seat="1"] .badge')
            room = srv.registry.rooms[code]
            deadline = time.monotonic() + 120
            while not over(ann):
                assert time.monotonic() < deadline, "the game did not end in time"
                if not click_an_option(ann):
                    time.sleep(0.03)
            ann.screenshot(path=str(ARTIFACTS / "web-agents-over.png"))
            assert room.match is not None and room.match.game.winning_side is not None
    assert not problems, problems
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    start, decisions, _ = store.read_game(g.game_id)
    assert [s.kind for s in start.seating] == ["human", "remote", "agent", "bot"]
    assert [o.kind for o in g.seat_outcomes] == ["human", "remote", "agent", "bot"]
    assert start.seating[1].model == f"remote/{url}"
    for seat, provider in ((1, "remote"), (2, "agent")):
        mine = [d for d in decisions if d.seat == seat and len(d.options) > 1]
        assert mine and all(d.model is not None for d in mine)
        assert {d.model["provider"] for d in mine if d.model} == {provider}
        assert not any(d.fallback for d in mine)
    cost = next(o.cost_usd for o in g.seat_outcomes if o.player == "py")
    assert cost > 0  # the Python agent's usage, charged like a model's
    assert (store.root / "spend.jsonl").read_text().count('"player":"py"') > 0
