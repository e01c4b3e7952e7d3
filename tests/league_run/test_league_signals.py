"""Table talk in a league (issue 23, docs/signals.md): model seats against the fake OpenAI server
on 127.0.0.1 send scripted signals with ``signals: true``; the run records them, every seat's
feed narrates them, and ``league report`` scores claim honesty and mark accuracy in every format.
With ``signals: false`` (the default) nothing a model is sent changes, and games of rule bots
are the same byte for byte either way."""

from __future__ import annotations

import io
import itertools
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.cli.main import main
from harness.records import RunStore
from harness.records.deals import deal_of
from harness.runs import build_report, markdown, print_report, save_report
from harness.runs.talk_table import team_role
from harness.views.prompts import system_prompt_text
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.script import Answer

from .model_league import game_files, model_player, run_dir

pytest.importorskip("openai")

_ROW = re.compile(r"^\| (?!Player\b)(.+?) \| .*? \| ([^|]+?) \|$", re.MULTILINE)


def table_names(body: Mapping[str, Any]) -> tuple[list[str], str | None, dict[str, str]]:
    """The players of the table in the request's last message, which one is the seat, and the
    roles the table shows (the Marshal's, eliminated players', the seat's own)."""
    text = str(body["messages"][-1]["content"])
    names, me, shown = [], None, {}
    for raw, role in _ROW.findall(text):
        name = raw.removesuffix(" (you)")
        names.append(name)
        if raw.endswith(" (you)"):
            me = name
        if role != "?":
            shown[name] = role
    return names, me, shown


def talker(bodies: itertools.count) -> Any:  # type: ignore[type-arg]
    """A scripted model: the first option, and by turns a claim, a mark on another player whose
    role is hidden, a reaction, a mark naming no player (refused), or nothing.  The Marshal,
    whose role is public, reacts instead of claiming."""

    def answer(body: Mapping[str, Any]) -> Answer:
        n = next(bodies)
        names, me, shown = table_names(body)
        others = [x for x in names if x != me and x not in shown] or ["nobody"]
        marshal = me is not None and shown.get(me) == "Marshal"

        def claim(role: str) -> dict[str, Any]:
            return (
                {"kind": "react", "reaction": "deal"}
                if marshal
                else {"kind": "claim", "role": role}
            )

        plan: list[dict[str, Any] | None] = [
            claim(("deputy", "raider", "loner")[n // 6 % 3]),
            {"kind": "mark", "target": others[n % len(others)], "role": ("raider", "loner")[n % 2]},
            {"kind": "react", "reaction": "suspect"},
            {"kind": "mark", "target": "Nobody Here", "role": "raider"},
            claim("deputy"),
            None,
        ]
        return Answer(signal=plan[n % len(plan)])

    return answer


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def league(tmp_path: Path, server: FakeOpenAIServer, name: str, **over: Any) -> Path:
    data: dict[str, Any] = {
        "name": name,
        "players": [model_player("talker", server), {"name": "bot", "kind": "bot"}],
        "tables": [{"seats": [5]}],
        "games_per_table": 2,
        "decision_seconds": 5,
        "providers": {"openai": {"concurrency": 4}},
        "output": str(tmp_path / "out"),
    }
    data.update(over)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def run(cfg: Path) -> Path:
    assert main(["league", "run", str(cfg), "--no-progress", "--no-preflight"]) == 0
    return run_dir(cfg)


def truth(run: Path) -> dict[tuple[str, str], dict[str, list[bool]]]:
    """Claims and marks of the run judged from its records, per player × dealt role."""
    store = RunStore(run)
    out: dict[tuple[str, str], dict[str, list[bool]]] = {}
    for g in store.games():
        roles = {o.seat: o.role for o in g.seat_outcomes}
        players = {o.seat: o.player for o in g.seat_outcomes}
        for d in store.read_game(g.game_id)[1]:
            sig = (d.model or {}).get("signal")
            if sig is None or (d.model or {}).get("signal_refused"):
                continue
            cell = out.setdefault((players[d.seat], roles[d.seat]), {"claim": [], "mark": []})
            if sig["kind"] == "claim":
                cell["claim"].append(sig["role"] == team_role(roles[d.seat]))
            elif sig["kind"] == "mark":
                cell["mark"].append(sig["role"] == team_role(roles[sig["target"]]))
    return out


def test_a_model_league_with_table_talk_reports_claim_honesty_and_mark_accuracy(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.script.default = talker(itertools.count())
    cfg = league(tmp_path, server, "talk", signals=True)
    folder = run(cfg)
    assert json.loads((folder / "config.json").read_text())["signals"] is True

    # the signals are recorded with the decisions; a refused one says why and the choice stands
    store = RunStore(folder)
    records = [d.model for g in store.games() for d in store.read_game(g.game_id)[1] if d.model]
    refused = [m for m in records if m.get("signal_refused")]
    assert refused and all(m["fallback"] is None for m in refused)
    assert any("not a player's name" in m["signal_refused"] for m in refused)
    assert any(m.get("signal") for m in records)

    # every model request after a signal narrates it in the seat's feed; the system prompt
    # documents the signal format
    bodies = [r.body for r in server.script.model_requests if r.body]
    assert all(b["messages"][0]["content"] == system_prompt_text("en", True) for b in bodies)
    assert any("💬" in str(b["messages"][-1]["content"]) for b in bodies)
    assert all(b["response_format"]["schema"]["properties"].get("signal") for b in bodies)

    report = build_report(folder)
    expected = truth(folder)
    table = report.signals.set_index(["player", "role"])
    assert expected, "the scripted model made claims and marks"
    # the two games are the seatings of one deal: one cluster, no interval (docs/statistics.md)
    assert len({deal_of(g) for g in store.games()}) == 1
    for (player, role), seen in expected.items():
        row = table.loc[(player, role)]
        assert row["claims"] == len(seen["claim"])
        assert row["marks"] == len(seen["mark"])
        if seen["claim"]:
            share = sum(seen["claim"]) / len(seen["claim"])
            assert row["honest"] == pytest.approx(share)
            assert math.isnan(row["honest_lo"]) and math.isnan(row["honest_hi"])
        if seen["mark"]:
            share = sum(seen["mark"]) / len(seen["mark"])
            assert row["accurate"] == pytest.approx(share)
            assert math.isnan(row["accurate_lo"]) and math.isnan(row["accurate_hi"])
    assert table["refused"].sum() == len(refused)
    # the talk line counts what the model seats were offered, sent and had refused
    offered = sum(1 for m in records if m.get("attempts"))
    sent = sum(1 for m in records if isinstance(m.get("signal"), dict))
    assert report.talk.endswith(
        f"{offered:,} model decisions offered a signal, {sent:,} sent, {len(refused):,} refused"
    )
    assert not report.claim_effect.empty
    for _, row in report.claim_effect.iterrows():
        for col in ("change", "no_claim", "agree_before", "agree_after"):
            if row[f"{col}_lo"] == row[f"{col}_lo"]:  # an interval where one is defined
                assert row[f"{col}_lo"] <= row[col] <= row[f"{col}_hi"]
    assert report.claim_effect["marks_after"].sum() > 0
    assert set(report.claim_effect["claimed"]) <= {"deputy", "raider", "loner"}

    # every report format: terminal, CSV, Markdown, HTML
    from rich.console import Console

    console = Console(file=io.StringIO(), width=250)
    print_report(report, console)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Table talk: on" in shown and "Table talk by player × role" in shown
    md = markdown(report)
    assert "Table talk: on" in md and "Do claims move the table?" in md
    out = save_report(report)
    header = (out / "signals.csv").read_text().splitlines()[0]
    assert header.startswith("player,role,seat_games,claims,honest,honest_lo,honest_hi")
    assert (out / "claim_effect.csv").exists()
    assert (out / "settings.csv").read_text().splitlines() == ["setting,value", "signals,on"]
    assert main(["report", str(folder)]) == 0
    html = (folder / "report" / "index.html").read_text(encoding="utf-8")
    assert 'id="talk-line"' in html and 'id="signals-table"' in html
    assert 'id="claim-effect-table"' in html


@pytest.mark.parametrize("mode", ["json_schema", "tool", "grammar", "text"])
def test_every_answer_mode_carries_an_optional_signal(
    tmp_path: Path, server: FakeOpenAIServer, mode: str
) -> None:
    server.script.default = talker(itertools.count())
    player = model_player("talker", server, answer_mode=mode)
    cfg = league(tmp_path, server, f"talk-{mode}", signals=True, games_per_table=1,
                 players=[player, {"name": "bot", "kind": "bot"}])  # fmt: skip
    folder = run(cfg)
    body = next(r.body for r in server.script.model_requests if r.body)
    sent = json.dumps(body)
    if mode == "text":
        assert '"signal"' in body["messages"][0]["content"]  # the documented line
    else:
        assert "signal" in sent.replace(body["messages"][0]["content"], "")
    report = build_report(folder)
    assert report.signals["claims"].sum() > 0


def test_a_model_that_never_talks_is_said_to_have_sent_nothing(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    """Not a blank section: the report says how many decisions offered a signal, and none sent."""
    server.script.default = lambda body: Answer()
    folder = run(league(tmp_path, server, "mute", games_per_table=1, signals=True))
    report = build_report(folder)
    assert report.signals.empty
    store = RunStore(folder)
    asked = sum(
        1 for g in store.games() for d in store.read_game(g.game_id)[1]
        if (d.model or {}).get("attempts")
    )  # fmt: skip
    assert asked > 0
    assert report.talk.endswith(
        f"{asked:,} model decisions offered a signal, 0 sent, 0 refused — none sent"
    )
    assert report.talk in markdown(report)


def test_with_signals_off_a_model_is_sent_nothing_new(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.script.default = talker(itertools.count())  # signals in answers are not read
    folder = run(league(tmp_path, server, "quiet", games_per_table=1))
    bodies = [r.body for r in server.script.model_requests if r.body]
    assert bodies
    for b in bodies:
        assert b["messages"][0]["content"] == system_prompt_text("en")
        assert "signal" not in json.dumps(b["response_format"])
        assert "💬" not in json.dumps(b["messages"], ensure_ascii=False)
    store = RunStore(folder)
    for g in store.games():
        for d in store.read_game(g.game_id)[1]:
            assert not {"signal", "signal_refused"} & set(d.model or {})
    report = build_report(folder)
    assert report.signals.empty and report.talk.startswith("Table talk: off")
    out = save_report(report)
    assert (out / "settings.csv").read_text().splitlines() == ["setting,value", "signals,off"]


def test_rule_bot_games_are_the_same_with_signals_on_and_off(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    bots = [{"name": "bot-a", "kind": "bot"}, {"name": "bot-b", "kind": "bot"}]
    files = {}
    for on in (False, True):
        cfg = league(tmp_path / str(on), server, "bots", players=bots, signals=on)
        files[on] = game_files(run(cfg))
    assert files[False] and files[True] == files[False]
    # a model that sends no signal plays the same game too: the same choices and events
    moves = {}
    for on in (False, True):
        cfg = league(tmp_path / f"m{on}", server, "silent", signals=on, games_per_table=1)
        store = RunStore(run(cfg))
        moves[on] = [
            (
                [d.chosen for d in store.read_game(g.game_id)[1]],
                store.read_game(g.game_id)[2].events,
            )
            for g in store.games()
        ]
    assert moves[False] and moves[True] == moves[False]


def test_a_bad_signals_setting_is_a_one_line_config_error() -> None:
    from harness.league.league_config import parse_config
    from harness.play.config_files import ConfigError

    base = {"name": "x", "players": [{"name": "b", "kind": "bot"}], "tables": [{"seats": [4]}],
            "games_per_table": 1}  # fmt: skip
    assert parse_config(base).signals is False  # off by default
    with pytest.raises(ConfigError) as e:
        parse_config({**base, "signals": "maybe"})
    assert str(e.value) == (
        "config: config field signals: Input should be a valid boolean, unable to interpret input"
    )
    with pytest.raises(ConfigError, match="did you mean signals"):
        parse_config({**base, "signal": True})
