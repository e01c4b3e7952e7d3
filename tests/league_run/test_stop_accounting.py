"""What a stop leaves in the records (issue 26): a game stopped by SIGINT and resumed has a
``duration_s`` covering both sessions (the time before the stop is kept in its file); the call
cut off at the stop is in the spend ledger with unknown tokens (``null``), never 0; an answered
call that reached no decision record is named by ``league report``."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine, now_utc
from harness.records import RunStore
from harness.runs import build_report, markdown
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer

from .model_league import league_args, run_dir, run_league, spend, write_league

pytest.importorskip("openai")

ANSWERED_BEFORE_STOP = 3


@contextlib.contextmanager
def _interrupt_when(server: FakeOpenAIServer, requests: int) -> Iterator[None]:
    """SIGINT to this process once the server holds its ``requests``-th request (stalled).

    The signal is meant for the league run; one that arrives after the run has returned (its own
    handler gone) would stop the test process itself, so a harmless handler stands under the
    run's until the watcher has finished."""

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(server.script.model_requests) >= requests:
                time.sleep(0.3)  # the stalled call is in flight
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.01)

    def harmless(signum: int, frame: object) -> None:
        return None

    previous = signal.signal(signal.SIGINT, harmless)
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, harmless)  # the run's loop put back Python's default
        thread.join()
        signal.signal(signal.SIGINT, previous)


def test_a_stopped_and_resumed_game_keeps_its_time_and_its_unknown_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.delay_s = 0.1
        for _ in range(ANSWERED_BEFORE_STOP):
            server.script.answer()
        server.script.stall(30)  # the call in flight at the stop
        cfg = write_league(
            tmp_path / "stop.yaml", server, name="stop", model_players=1, bots=3,
            games_per_table=1, paired=False, decision_seconds=60,
        )  # fmt: skip
        with _interrupt_when(server, ANSWERED_BEFORE_STOP + 1):
            code = main(league_args(cfg))
        assert code == 128 + signal.SIGINT
        store = RunStore(run_dir(cfg))
        assert store.games() == []
        [game_file] = store.games_dir.glob("*.jsonl")
        partial = store.partial_game(game_file.stem)
        assert partial is not None
        start, kept = partial
        model_kept = [d for d in kept if d.model and d.model["attempts"]]
        assert len(model_kept) == ANSWERED_BEFORE_STOP
        # the time played so far is kept: past the last decision (the stalled call waited)
        assert start.elapsed_s is not None and kept[-1].elapsed_s is not None
        assert start.elapsed_s >= kept[-1].elapsed_s + 0.25
        [cut] = [x for x in spend(cfg) if x.outcome == "cancelled"]
        assert cut.input_tokens is None and cut.output_tokens is None and cut.cost_usd is None
        capsys.readouterr()

        assert run_league(cfg, "--resume") == 0
    [game] = store.games()
    _, decisions, _ = store.read_game(game.game_id)
    after = decisions[len(kept) :]
    # both sessions: the time before the stop plus at least this session's model latency
    assert game.duration_s >= start.elapsed_s + sum(d.latency_s for d in after)
    elapsed = [d.elapsed_s for d in decisions]
    assert all(e is not None for e in elapsed) and elapsed == sorted(elapsed)  # type: ignore[type-var]
    assert elapsed[len(kept)] >= start.elapsed_s  # type: ignore[operator]
    [row] = build_report(run_dir(cfg), bootstrap=20).spend.to_dict("records")
    assert row["cancelled"] == 1 and row["unknown_token_calls"] == 1
    assert row["unrecorded_answers"] == 0
    ledger = SpendLedger(run_dir(cfg) / SPEND_FILE)
    assert row["input_tokens"] + row["output_tokens"] == ledger.tokens


def test_an_answered_call_in_no_decision_record_is_named_in_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        cfg = write_league(
            tmp_path / "lost.yaml", server, name="lost", model_players=1, bots=3,
            games_per_table=2, paired=False,
        )  # fmt: skip
        assert run_league(cfg) == 0
    run = run_dir(cfg)
    before = build_report(run, bootstrap=20)
    assert before.spend["unrecorded_answers"].tolist() == [0]
    assert not [n for n in before.flags.notes if "no decision record" in n]
    game_id = RunStore(run).games()[0].game_id
    # an answer that came back as the run stopped, before its decision was written
    SpendLedger(run / SPEND_FILE).add(
        SpendLine(
            at=now_utc(),
            game_id=game_id,
            player="model-0",
            provider="openai",
            model="gpt-test",
            outcome="answered",
            input_tokens=900,
            output_tokens=12,
        )  # fmt: skip
    )
    report = build_report(run, bootstrap=20)
    assert report.spend["unrecorded_answers"].tolist() == [1]
    [note] = [n for n in report.flags.notes if "no decision record" in n]
    assert note.startswith("1 answered call of model-0 (gpt-test) in the spend ledger but in no ")
    text = markdown(report)
    assert note in text and "answered, unrecorded" in text
