"""Clean stops and no endless games (issue 11): a fatal model error or a spending cap leaves exactly
one line on stderr and exit code 2, with every task cancelled and awaited; a provider that fails
every call stops the run (resumable) instead of filling it with fallbacks; a game whose model seats
keep falling back is ended and recorded as void (Ruling R-5's simplest move never attacks, so such
a game would never end)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.records import RunStore
from harness.replay.verify import replay_game
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.script import Malformed, Status

from .model_league import ROOT, run_dir, run_league, spend, write_league

pytest.importorskip("openai")

# Runs ``bangarena league run`` once per config in one interpreter (model SDKs imported once),
# with file descriptor 2 sent to a file per run; garbage is collected after each run so that an
# unretrieved task exception or an unclosed resource would be reported into that run's file.
DRIVER = textwrap.dedent(
    """
    import gc, os, sys
    from harness.cli.main import main
    out, args = sys.argv[1], sys.argv[2:]
    for i, cfg in enumerate(args):
        fd = os.open(os.path.join(out, f"stderr{i}.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(fd, 2)
        try:
            rc = main(["league", "run", cfg, "--no-progress", "--no-preflight"])
            gc.collect()
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(fd)
        print(f"exit code {rc}", flush=True)
    """
)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def test_fatal_errors_and_caps_stop_with_one_line_every_time(tmp_path: Path) -> None:
    runs = 10
    with FakeOpenAIServer() as bad_key, FakeOpenAIServer() as huge:
        bad_key.script.default = lambda body: Status(401)
        huge.script.usage_tokens = 1_000_000
        huge.script.delay_spread_s = 0.05
        configs = []
        for i in range(runs):
            fatal = i % 2 == 0
            folder = tmp_path / f"run{i}"
            folder.mkdir()
            cfg = write_league(
                folder / "league.yaml",
                bad_key if fatal else huge,
                name=f"stop{i}",
                model_players=3,
                bots=1,
                games_per_table=16,
                max_concurrent_games=16,
                spending={} if fatal else {"max_tokens": 3_500_000},
            )
            configs.append(str(cfg))
        env = {**os.environ, KEY_ENV: SECRET_KEY, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(
            [sys.executable, "-W", "default", "-c", DRIVER, str(tmp_path), *configs],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr == ""
    codes = [x for x in proc.stdout.splitlines() if x.startswith("exit code")]
    assert codes == ["exit code 2"] * runs
    for i in range(runs):
        err = (tmp_path / f"stderr{i}.txt").read_text()
        lines = err.splitlines()
        assert len(lines) == 1, f"run {i}: {err[:3000]}"
        expected = "authentication failed" if i % 2 == 0 else "token cap reached"
        assert lines[0].startswith("bangarena: error: ") and expected in lines[0], lines[0]
        assert SECRET_KEY not in err


def test_a_game_of_fallbacks_is_void(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.script.default = lambda body: Malformed("no idea")  # every answer is invalid
    cfg = write_league(
        tmp_path / "void.yaml",
        server,
        name="void",
        games_per_table=2,
        max_consecutive_fallbacks=6,
        max_failed_decisions=1000,
    )
    assert run_league(cfg) in (0, 3)  # finished (a report may flag the void share)
    store = RunStore(run_dir(cfg))
    games = store.games()
    assert len(games) == 2
    for g in games:
        assert g.void is not None and "fell back 6 times in a row" in g.void
        assert "invalid_answer" in g.void
        assert g.winning_side == "void" and g.winners == []
        assert not any(o.won for o in g.seat_outcomes)
        start, decisions, end = store.read_game(g.game_id)
        assert end.void == g.void
        model = [d for d in decisions if d.player.startswith("model-") and len(d.options) > 1]
        assert [d.fallback for d in model[-6:]] == ["invalid_answer"] * 6
        assert g.decisions == len(decisions) < 200
        replayed = replay_game(store, g.game_id)  # a void game replays up to where it ended
        assert replayed.ok, replayed.summary()


def test_a_provider_failing_every_call_stops_the_run_resumably(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script.default = lambda body: Status(503)
    cfg = write_league(
        tmp_path / "down.yaml",
        server,
        name="down",
        model_players=1,
        bots=3,
        retry_budget=1,
        max_concurrent_games=2,
    )
    assert run_league(cfg) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert "model-0" in err[0] and "failed every call for 10 decisions in a row" in err[0]
    assert "--resume" in err[0]
    # two tries per decision, ten decisions, and at most one decision more per game in flight
    assert 20 <= len(server.script.model_requests) <= 20 + 2 * 2
    assert RunStore(run_dir(cfg)).games() == []

    # the failed decisions are not kept: the resumed run asks them again
    store = RunStore(run_dir(cfg))
    for f in store.games_dir.glob("*.jsonl"):
        partial = store.partial_game(f.stem)
        assert partial is not None and all(d.fallback is None for d in partial[1])

    server.script.default = None  # the provider is back
    assert run_league(cfg, "--resume") == 0
    games = store.games()
    assert len(games) == 4 and all(g.void is None for g in games)
    assert sum(g.fallbacks for g in games) == 0
    failed = [x for x in spend(cfg) if x.outcome == "failed"]
    assert len(failed) >= 20 and {x.error_kind for x in failed} == {"server_error"}
