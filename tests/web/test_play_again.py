"""Play again only once the last game is recorded: a ``start`` while the finished game is still
being written is refused, so its result frame never lands on top of the next game's views (the
fuzz test met this race: ``over`` of the old game after the views of a new one)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from harness.web import room_game

from .server import Client, LiveServer, drive


def test_a_start_while_the_last_game_is_recorded_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = room_game.write_match

    def slow_write(*args: Any) -> Any:
        time.sleep(1.0)  # a slow disk: the record takes a second
        return real(*args)

    monkeypatch.setattr(room_game, "write_match", slow_write)
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        ann = Client(srv.ws_url)
        ann.send(type="create", name="Ann", settings={"seats": 4})
        ann.wait_type("joined")
        ann.send(type="start")
        sent: list[str] = []

        def hook(c: Client, f: dict[str, Any]) -> None:
            if f["type"] == "view" and f["ctx"]["result"] and not sent:  # the game is over
                c.send(type="start")
                sent.append("start")

        drive([ann], hook=hook, timeout=60)
        assert sent
        over = next(i for i, f in enumerate(ann.frames) if f["type"] == "over")
        (error,) = [f for f in ann.frames if f["type"] == "error"]
        assert error["code"] == "started" and "being recorded" in error["message"]
        assert ann.frames.index(error) < over  # refused before the result came
        assert not any(f["type"] == "view" and f["reset"] for f in ann.frames[over:])
        ann.send(type="start")  # once recorded, the next game starts
        view = ann.wait(lambda f: f["type"] == "view" and f["reset"])
        assert view["ctx"]["result"] is None
