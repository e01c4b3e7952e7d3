"""Bot matches and the web table's records (issue 35, item 7): a server-wide cap on bot matches
playing at once (before: 10 per address and none for the server — 400 matches gave an unrelated
ping p99 of 1.9 s), and a retention rule for the run folder (before: every match kept forever)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from harness.records import RunStore
from harness.records.signal_records import SIGNALS_FILE
from harness.web.retention import RecordRetention, WebStore

from .server import Client, LiveServer, drive, start_room
from .test_bad_input import expect_error

SLOW = {"slow": 0.3, "normal": 0.3, "fast": 0.3}


def watch_match(url: str, seats: int = 4) -> Client:
    c = Client(url)
    c.send(type="watch", settings={"seats": seats})
    return c


def test_bot_matches_are_capped_for_the_whole_server(tmp_path: Path) -> None:
    """With ``bot_matches: 2`` a third bot match is refused (``busy``) while a person's table
    still starts; once a match nobody watches closes, a new one starts."""
    settings = {"limits": {"bot_matches": 2}}
    with LiveServer(tmp_path, pauses=SLOW, settings=settings) as srv:
        a, b = watch_match(srv.ws_url, 8), watch_match(srv.ws_url, 8)
        a.wait_type("joined")
        b.wait_type("joined")
        late = watch_match(srv.ws_url)
        err = expect_error(late, "busy")
        assert "2 bot matches" in err["message"]
        person = Client(srv.ws_url)
        person.send(type="create", name="Ann", settings={"seats": 4}, play=True)
        assert person.wait_type("joined")["seat"] == 0
        a.close()  # its match closes once nobody watches it
        deadline = time.monotonic() + 20
        while True:
            late.send(type="watch", settings={"seats": 4})
            f = late.wait(lambda f: f["type"] in ("joined", "error"))
            if f["type"] == "joined":
                break
            assert f["code"] == "busy" and time.monotonic() < deadline
            time.sleep(0.5)
        for c in (b, late, person):
            c.close()


def play_bot_match(url: str) -> None:
    c = watch_match(url)
    c.wait_type("joined")
    drive([c])  # the 'over' frame comes after the game is written
    c.close()


def test_old_bot_matches_leave_the_run_folder(tmp_path: Path) -> None:
    """``keep_bot_matches: 1``: of a person's game and three bot matches the folder keeps the
    person's game and the newest match (games.jsonl, the game files); ``keep_games: 1`` applied
    when the folder is opened again (a restart) keeps only the newest game, and the removed
    game's signals go with it."""
    settings = {"records": {"keep_bot_matches": 1}}
    with LiveServer(tmp_path, settings=settings) as srv:
        (ann,) = start_room(srv.ws_url, seats=4)
        sent = False

        def react(c: Client, f: dict[str, object]) -> None:
            nonlocal sent
            if not sent and f["type"] == "view":
                c.send(type="signal", kind="react", reaction="gg")
                sent = True

        drive([ann], hook=react)
        ann.close()
        for _ in range(3):
            play_bot_match(srv.ws_url)
    run = tmp_path / "web"
    games = RunStore(run).games()
    assert len(games) == 2
    person, match = games
    assert {o.kind for o in person.seat_outcomes} == {"human", "bot"}
    assert {o.kind for o in match.seat_outcomes} == {"bot"}
    assert sorted(p.stem for p in (run / "games").glob("*.jsonl")) == sorted(
        [person.game_id, match.game_id]
    )
    signals = [json.loads(x)["game_id"] for x in (run / SIGNALS_FILE).read_text().splitlines()]
    assert signals == [person.game_id]

    store = WebStore(run, RecordRetention(keep_games=1))
    assert store.trim() == [person.game_id]
    assert [g.game_id for g in RunStore(run).games()] == [match.game_id]
    assert [p.stem for p in (run / "games").glob("*.jsonl")] == [match.game_id]
    assert (run / SIGNALS_FILE).read_text() == ""


def test_the_folder_is_trimmed_in_batches(tmp_path: Path) -> None:
    """``keep_bot_matches: 20`` may pass by 1 (5 %): the 21st match is kept, the 22nd brings the
    folder back to the newest 20."""
    with LiveServer(tmp_path) as srv:
        play_bot_match(srv.ws_url)
    run = tmp_path / "web"
    (record,) = RunStore(run).games()
    start, decisions, end = RunStore(run).read_game(record.game_id)
    copies = tmp_path / "copies"
    store = WebStore(copies, RecordRetention(keep_bot_matches=20))
    ids = []
    for k in range(22):
        gid = f"copy-{k:02d}"
        ids.append(gid)
        store.write_game(
            start.model_copy(update={"game_id": gid}),
            decisions,
            end.model_copy(update={"game_id": gid}),
            record.model_copy(update={"game_id": gid}),
        )
        kept = [g.game_id for g in RunStore(copies).games()]
        assert kept == (ids if k < 21 else ids[-20:]), k
    assert len(list((copies / "games").glob("*.jsonl"))) == 20
