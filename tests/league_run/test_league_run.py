"""League runner: configs, fair schedules, records, kill-and-resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.engine import Game
from harness.league.league_config import load_config, parse_config
from harness.league.schedule import build_schedule
from harness.play.config_files import ConfigError
from harness.records import RunStore

ROOT = Path(__file__).resolve().parents[2]

BASE = {
    "name": "t",
    "players": [{"name": "bot", "kind": "bot"}, {"name": "rnd", "kind": "random"}],
    "tables": [{"seats": [4, 5], "modes": ["classic"]}],
    "games_per_table": 10,
}


def write_config(tmp_path: Path, **over: object) -> Path:
    data = {**BASE, **over}
    path = tmp_path / f"{data['name']}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_quickstart_config_is_valid_and_keyless() -> None:
    cfg = load_config(ROOT / "configs" / "quickstart.yaml")
    assert not cfg.has_models
    assert len(build_schedule(cfg)) > 100


@pytest.mark.parametrize(
    ("patch", "expected"),
    [
        (
            {"players": [{"name": "x", "kind": "robot"}]},
            "players.0.kind: Input should be 'model', 'bot', 'random', 'agent', 'remote', 'mcp' or 'inspect'",
        ),
        ({"tables": [{"seats": [9]}]}, "tables.0.seats: seat counts must be 4..8"),
        ({"tables": [{"seats": [5], "modes": ["chaos"]}]}, "tables.0.modes.0"),
        ({"games_per_table": 0}, "games_per_table"),
        (
            {"players": [{"name": "a", "kind": "bot"}, {"name": "a", "kind": "random"}]},
            "player names must be unique",
        ),
        ({"players": [{"name": "m", "kind": "model"}]}, "needs a 'model' section"),
        ({"typo_field": 1}, "typo_field"),
    ],
)
def test_bad_configs_name_the_field(patch: dict, expected: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config({**BASE, **patch})
    assert expected in str(e.value) and "\n" not in str(e.value)


def test_bad_config_on_the_command_line_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nplayers: [\n")
    assert main(["league", "run", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not valid YAML" in err and err.count("\n") == 1
    assert main(["league", "run", str(tmp_path / "missing.yaml")]) == 2


def test_schedule_rotates_players_through_every_role() -> None:
    """Paired play: each deal is replayed with the lineup rotated one seat per game, so every
    player plays every role of the deal; over the run roles are spread about equally."""
    cfg = parse_config({**BASE, "tables": [{"seats": [5]}], "games_per_table": 50})
    games = build_schedule(cfg)
    assert len(games) == 50
    by_deal: dict[int, list] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    for deal, gs in by_deal.items():
        assert len({g.seed for g in gs}) == 1 and len(gs) == 5
        roles = [s.role for s in Game.new(5, "classic", gs[0].seed).seats]
        for player in ("bot", "rnd"):
            seen = Counter(roles[i] for g in gs for i, p in enumerate(g.lineup) if p == player)
            assert set(seen) == set(roles), (deal, player, seen)
    names = {g.names for g in games}
    assert len(names) > 10  # seat names are drawn per game, not per player


def _strip(record: dict) -> dict:
    record = dict(record)
    record.pop("duration_s")
    record.pop("finished_at")
    for o in record["seat_outcomes"]:
        o.pop("latency_s")
    return record


def _records(run_dir: Path) -> list[dict]:
    return sorted(
        (_strip(g.model_dump()) for g in RunStore(run_dir).games()), key=lambda r: r["game_id"]
    )


def test_run_writes_records_for_every_game(tmp_path: Path) -> None:
    cfg = write_config(tmp_path)
    assert (
        main(["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--no-progress"]) == 0
    )
    run = tmp_path / "out" / "t"
    store = RunStore(run)
    games = store.games()
    assert len(games) == 20 and len({g.game_id for g in games}) == 20
    start, decisions, end = store.read_game(games[0].game_id)
    assert start.game_id == games[0].game_id and len(decisions) == games[0].decisions
    assert end.events and end.winning_side == games[0].winning_side
    assert json.loads((run / "config.json").read_text())["name"] == "t"
    # running again without --resume refuses; with --resume there is nothing left to do
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "out")]) == 2
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--resume"]) == 0
    assert len(RunStore(run).games()) == 20


def test_killed_run_resumed_equals_uninterrupted_run(tmp_path: Path) -> None:
    """SIGKILL mid-run, then --resume: exactly the games of an uninterrupted run."""
    cfg = write_config(tmp_path, name="kr", games_per_table=40, tables=[{"seats": [5, 6]}])
    cmd = [sys.executable, "-m", "harness.cli.main", "league", "run", str(cfg), "--workers", "1",
           "--no-progress"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out_a = tmp_path / "a"
    proc = subprocess.Popen([*cmd, "--output", str(out_a)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    games = out_a / "kr" / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if games.exists() and len(games.read_text().splitlines()) >= 12:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_at = len(RunStore(out_a / "kr").games())
    assert 12 <= killed_at < 80, f"kill landed after {killed_at} games"
    subprocess.run([*cmd, "--output", str(out_a), "--resume"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip
    out_b = tmp_path / "b"
    subprocess.run([*cmd, "--output", str(out_b)], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip
    a, b = _records(out_a / "kr"), _records(out_b / "kr")
    assert len(a) == len(b) == 80
    assert a == b
    for rec in a[:5]:
        gid = rec["game_id"]
        ea = RunStore(out_a / "kr").read_game(gid)[2].events
        eb = RunStore(out_b / "kr").read_game(gid)[2].events
        assert ea == eb


@pytest.mark.parametrize("name", ["quickstart", "openai", "anthropic", "litellm", "local"])
def test_example_configs_validate(name: str) -> None:
    cfg = load_config(ROOT / "configs" / f"{name}.yaml")
    assert cfg.name == name and build_schedule(cfg)
