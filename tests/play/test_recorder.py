"""One game recorder (:mod:`harness.play.recorder`) builds the records of league games, web games
and Inspect samples, and the records of league games are what they were before it was one piece of
code: a fresh game, a streamed game (event digests, times played) and a game continued from half of
its recorded decisions give the same records as ``golden_records.json`` (times left out)."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path

from harness.agents import RandomAgent
from harness.agents.rulebot import RuleBot
from harness.agents.table import Table
from harness.engine import Game
from harness.league.game_play import play_scheduled, seating
from harness.league.league_config import parse_config
from harness.league.schedule import build_schedule
from harness.play.recorder import GameIdent, GameRecorder

from .recorded_games import CONFIG, digests, recorded_games

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "harness"
RECORDS = {"GameStart", "DecisionLine", "GameEnd", "GameRecord", "SeatOutcome"}
BUILDERS = {"decision_line", "seat_outcome", "end_records", "start_line"}


def test_league_records_are_the_golden_records() -> None:
    golden = json.loads((Path(__file__).parent / "golden_records.json").read_text())
    assert digests(recorded_games()) == golden


def _record_models_built(path: Path) -> set[str]:
    """The record models of :mod:`harness.records` that ``path`` constructs, and the functions
    named as the recorder's builders that it defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness.records"):
            imported |= {a.asname or a.name for a in node.names}
    built = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in RECORDS and node.func.id in imported:
                built.add(node.func.id)
        elif isinstance(node, ast.FunctionDef) and node.name in BUILDERS:
            built.add(node.name)
    return built


def test_only_the_recorder_builds_a_games_records() -> None:
    builders = {}
    for path in sorted(HARNESS.rglob("*.py")):
        rel = path.relative_to(HARNESS).as_posix()
        if rel.startswith("records/"):
            continue
        built = _record_models_built(path)
        if built:
            builders[rel] = built
    assert list(builders) == ["play/recorder.py"], builders


def test_league_web_and_inspect_record_through_the_recorder() -> None:
    callers = {
        "league": ["league/game_play.py"],
        "web": ["web/match.py", "web/records.py"],
        "inspect": ["integrations/inspect_task.py", "integrations/inspect_samples.py"],
    }
    for name, files in callers.items():
        text = "".join((HARNESS / rel).read_text(encoding="utf-8") for rel in files)
        assert "GameRecorder(" in text, name
        assert ".walk(" in text or ".record(" in text, name
        assert ".finish(" in text, name


def test_the_recorder_gives_a_league_games_records_from_any_caller() -> None:
    """A game walked by hand through the recorder (as the web table and Inspect do) records the
    same as the league's own walk of it."""
    config = parse_config(CONFIG, "golden config")
    spec = build_schedule(config)[0]
    league = asyncio.run(play_scheduled(spec, config, "golden"))

    async def by_hand() -> list[str]:
        game = Game.new(spec.seats, spec.mode, spec.seed)
        agents = [
            RuleBot(p) if p == "bot" else RandomAgent(p, seed=spec.seed + 7919 * i)
            for i, p in enumerate(spec.lineup)
        ]
        ident = GameIdent("golden", spec.game_id, spec.seed, spec.seats, spec.mode, 0, 0)
        recorder = GameRecorder(ident, seating(spec, config), game)
        table = Table(game, agents, game_id=spec.game_id)
        async for step in table.steps():
            recorder.record(step)
        out = recorder.finish(table.result(), league.record.duration_s)
        out.record.finished_at = league.record.finished_at
        return [x.model_dump_json(exclude={"latency_s"}) for x in out.decisions] + [
            out.start.model_dump_json(),
            out.end.model_dump_json(),
        ]

    mine = asyncio.run(by_hand())
    theirs = [x.model_dump_json(exclude={"latency_s"}) for x in league.decisions] + [
        league.start.model_dump_json(),
        league.end.model_dump_json(),
    ]
    assert mine == theirs
