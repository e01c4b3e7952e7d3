"""Replay verification, tampering detection, decision inspection and the report's files."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from harness.cli import inspect_cmd, replay_cmd, report_cmd
from harness.cli.cli_errors import CliError
from harness.engine import EngineError, Game, build_view
from harness.records import RunStore
from harness.replay import (
    DecisionFilter,
    find_decisions,
    inspect_decisions,
    is_invalid,
    normalize_event,
    replay_game,
    replay_steps,
)
from harness.report import build_report, summarize, wilson
from harness.report.html import game_payload

from . import MODEL_LABEL, build_run


def cli(argv: Sequence[str]) -> int:
    """Run one of this package's commands like ``bangarena`` does (CliError → exit 2)."""
    parser = argparse.ArgumentParser(prog="bangarena")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (replay_cmd, inspect_cmd, report_cmd):
        module.register(sub)
    args = parser.parse_args(list(argv))
    try:
        return int(args.func(args) or 0)
    except (CliError, EngineError) as e:
        print(f"bangarena: error: {e}")
        return 2


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunStore:
    """Four games (4-seat classic, 5-seat double agent) of a bot, a random seat and a model."""
    return build_run(tmp_path_factory.mktemp("runs"))


def _copy(store: RunStore, tmp_path: Path) -> RunStore:
    dst = tmp_path / store.root.name
    shutil.copytree(store.root, dst)
    return RunStore(dst)


def _rewrite(store: RunStore, game_id: str, edit: object) -> None:
    path = store.games_dir / f"{game_id}.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    edit(lines)  # type: ignore[operator]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


# ------------------------------------------------------------------------------- verify


def test_every_recorded_game_replays_and_verifies(
    run: RunStore, capsys: pytest.CaptureFixture[str]
) -> None:
    games = run.games()
    assert len(games) == 4
    for g in games:
        start, decisions, end = run.read_game(g.game_id)
        result = replay_game(run, g.game_id)
        assert result.ok, result.summary()
        assert result.decisions_checked == len(decisions) == g.decisions
        assert result.events_checked == len(end.events)
        assert cli(["replay", str(run.root), "--game", g.game_id]) == 0
        out = capsys.readouterr().out.strip()
        assert out == f"verified: {len(decisions)} decisions, {len(end.events)} events"
    assert cli(["replay", str(run.root)]) == 0
    assert capsys.readouterr().out.startswith("verified: 4 games, ")


def test_a_changed_event_is_named(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _copy(run, tmp_path)
    gid = store.games()[0].game_id
    target = {}

    def edit(lines: list[dict]) -> None:
        events = lines[-1]["events"]
        k = next(i for i, e in enumerate(events) if e["t"] == "hit")
        events[k]["hp"] += 1
        target["k"] = k

    _rewrite(store, gid, edit)
    assert cli(["replay", str(store.root), "--game", gid]) == 1
    out = capsys.readouterr().out
    assert f"game {gid} diverges at event {target['k']}:" in out
    assert "fields differ: hp" in out
    assert out.count("\n") == 1  # one line


def test_a_changed_choice_names_the_first_differing_event(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _copy(run, tmp_path)
    gid = store.games()[1].game_id
    start, decisions, end = store.read_game(gid)
    recorded = [normalize_event(e) for e in end.events]

    def first_difference(index: int, other: str) -> int | None:
        """The first event that differs from the record when decision ``index`` takes ``other``."""
        game = Game.new(start.seats, start.mode, start.seed)
        for x in decisions[: index - 1]:
            game.apply(x.chosen)
        game.apply(other)
        return next(
            (i for i, e in enumerate(game.events) if normalize_event(e) != recorded[i]), None
        )

    # A turn's play where ending the turn at once makes the log differ before the next decision.
    d, first = next(
        (x, f)
        for x in decisions
        if x.decision_kind == "play"
        and "end" in x.options
        and x.chosen != "end"
        and (f := first_difference(x.index, "end")) is not None
    )
    assert first >= d.event_index

    def edit(lines: list[dict]) -> None:
        lines[d.index]["chosen"] = "end"

    _rewrite(store, gid, edit)
    result = replay_game(store, gid)
    assert not result.ok and result.divergence is not None
    assert (result.divergence.kind, result.divergence.index) == ("event", first)
    assert cli(["replay", str(store.root), "--game", gid]) == 1
    assert f"diverges at event {first}:" in capsys.readouterr().out


def test_an_illegal_recorded_choice_names_the_decision(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _copy(run, tmp_path)
    gid = store.games()[0].game_id

    def edit(lines: list[dict]) -> None:
        lines[5]["chosen"] = "play:shot@9"

    _rewrite(store, gid, edit)
    assert cli(["replay", str(store.root)]) == 1
    out = capsys.readouterr().out
    assert f"game {gid} diverges at decision 5: recorded choice 'play:shot@9'" in out
    assert "1 of 4 games diverge" in out


def test_changed_options_and_missing_events_are_reported(run: RunStore, tmp_path: Path) -> None:
    store = _copy(run, tmp_path)
    gid = store.games()[0].game_id
    _rewrite(store, gid, lambda lines: lines[3]["options"].reverse())
    div = replay_game(store, gid).divergence
    assert div is not None and div.kind == "decision" and div.index == 3
    assert "options" in div.detail
    store2 = _copy(run, tmp_path / "b")
    _rewrite(store2, gid, lambda lines: lines[-1]["events"].pop())
    div = replay_game(store2, gid).divergence
    assert div is not None and div.kind == "event"
    assert div.index == len(store2.read_game(gid)[2].events)
    assert "the replay has more events" in div.detail


def test_cli_errors_are_one_line(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["replay", str(tmp_path / "nope"), "--game", "x"]) == 2
    assert cli(["replay", str(run.root), "--game", "no-such-game"]) == 2
    assert cli(["inspect", str(run.root), "--role", "sheriff"]) == 2
    assert cli(["inspect", str(run.root), "--fallback", "bored"]) == 2
    assert cli(["replay", str(run.root), "--step"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 5 and all(x.startswith("bangarena: error: ") for x in lines)
    assert "no game 'no-such-game'" in lines[1]


def test_an_unknown_model_names_the_runs_models_and_an_unwritable_out_its_path(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["inspect", str(run.root), "--model", "gpt-9"]) == 2
    assert cli(["inspect", str(run.root), "--model", "scripted/*"]) == 0  # a known one
    capsys.readouterr()
    assert cli(["inspect", str(run.root), "--model", "gpt-9"]) == 2
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert line == f"bangarena: error: no model 'gpt-9' in {run.root} (its models: {MODEL_LABEL})"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert cli(["report", str(run.root), "--out", str(blocker / "report"), "--no-progress"]) == 2
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert line.startswith(f"bangarena: error: cannot write the report to {blocker / 'report'}")


def test_step_walks_forward_and_back(
    run: RunStore, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = run.games()[0].game_id
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nb\nq\n"))
    assert cli(["replay", str(run.root), "--game", gid, "--step", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    steps = re.findall(r"step (\d+)/(\d+) · seat 1", out)
    assert [s for s, _ in steps] == ["1", "2", "3", "2"]
    assert int(steps[0][1]) == run.games()[0].decisions + 1
    assert "You are **" in out and "Since the previous step" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert cli(["replay", str(run.root), "--game", gid, "--step", "--full"]) == 0
    full = capsys.readouterr().out
    assert "full view" in full and "hand:" in full and "role" not in full.split("\n")[0]


def test_replay_steps_reproduce_the_views_the_seats_were_given(run: RunStore) -> None:
    gid = run.games()[0].game_id
    start, decisions, end = run.read_game(gid)
    n = 0
    for st in replay_steps(start, decisions):
        if st.decision is None:
            assert st.game.is_over
            continue
        d = st.decision
        view = build_view(st.game, d.seat, since=st.seen[d.seat])
        assert view.pending is not None and list(view.pending.options or ()) == d.options
        if d.model and d.model.get("view"):
            assert d.model["view"]["feed"] == view_feed(view, start)
            n += 1
    assert n > 0


def view_feed(view: object, start: object) -> list[str]:
    from harness.replay import seat_names
    from harness.views.render_context import view_context

    return view_context(view, seat_names(start), "en")["feed"]  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ inspect


def _all(store: RunStore) -> list[tuple[object, object]]:
    return list(find_decisions(store, DecisionFilter()))


def test_inspect_filters(run: RunStore) -> None:
    everything = _all(run)
    assert len(everything) == sum(g.decisions for g in run.games())

    def count(**kw: object) -> list:
        found = [d for _s, d in find_decisions(run, DecisionFilter(**kw))]  # type: ignore[arg-type]
        assert found, kw
        return found

    assert {d.player for d in count(model="fake-1")} == {"fakellm"}
    assert len(count(model="scripted/*")) == len(count(player="fakellm"))
    assert not list(find_decisions(run, DecisionFilter(model="gpt-*")))
    assert {d.player for d in count(player="random")} == {"random"}
    assert {d.role for d in count(role="marshal")} == {"marshal"}
    assert {d.seat for d in count(seat=2)} == {2}
    assert {d.decision_kind for d in count(kind="discard")} == {"discard"}
    fb = count(fallback="invalid_answer")
    assert all(d.fallback == "invalid_answer" for d in fb)
    assert len(count(fallback="any")) == sum(1 for _s, d in everything if d.fallback)
    invalid = count(invalid=True)
    assert all(is_invalid(d) for d in invalid) and len(invalid) > len(fb)
    gid = run.games()[2].game_id
    assert {d.game_id for d in count(game=gid)} == {gid}
    both = count(player="fakellm", kind="play", game=gid)
    assert all(d.player == "fakellm" and d.decision_kind == "play" for d in both)


def test_inspect_shows_prompt_raw_answer_and_reasoning(
    run: RunStore, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = {p["sha256"]: p["text"] for p in run.system_prompts()}
    assert (
        cli(["inspect", str(run.root), "--invalid", "--fallback", "invalid_answer", "--limit", "2"])
        == 0
    )
    captured = capsys.readouterr()
    out = captured.out
    assert re.search(r"\d+ of \d+ matching decisions shown", captured.err)
    assert len(re.findall(r"^═+$", out, re.M)) == 2
    assert "FALLBACK invalid_answer (policy simplest)" in out
    assert "You are playing BangArena" in out  # the system prompt, looked up by sha256
    assert out.count("You are playing BangArena") <= 2
    assert "[1. user]" in out and "[2. assistant]" in out  # the corrective re-prompt turns
    assert "I think I will play my best card." in out  # the raw unparseable answer
    assert "Reasoning #" in out
    assert "attempt 1: unparseable" in out
    assert "## View (re-rendered from the replayed game)" in out
    assert "**Your hand**" in out
    assert MODEL_LABEL in out
    assert (
        cli(
            [
                "inspect",
                str(run.root),
                "--player",
                "fakellm",
                "--kind",
                "play",
                "--limit",
                "3",
                "--json",
            ]
        )
        == 0
    )
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(rows) == 3
    for r in rows:
        m = r["model_record"]
        assert r["system_prompt"] == prompts[m["system_prompt_sha256"]]
        assert r["view_markdown"] and r["view_source"] == "replay"
        assert [o["id"] for o in r["options"]] == m["options"]
        if m["attempts"]:
            assert m["messages"][0]["role"] == "user"
            assert m["attempts"][0]["raw_text"]


def test_inspect_falls_back_to_the_stored_view_when_the_replay_diverges(
    run: RunStore, tmp_path: Path
) -> None:
    store = _copy(run, tmp_path)
    gid = store.games()[0].game_id
    _rewrite(store, gid, lambda lines: lines[1].update(chosen="putback:nonsense"))
    details, total = inspect_decisions(store, DecisionFilter(game=gid, player="fakellm"), limit=3)
    assert total > 0 and details
    assert all(x.view_source == "record" for x in details)
    assert all("Decision" in (x.view_markdown or "") for x in details)


# ------------------------------------------------------------------------------- report


def test_summary_counts_and_wilson(run: RunStore) -> None:
    games = run.games()
    s = summarize("tiny", games, None)
    assert sum(p.games for p in s.players) == sum(g.seats for g in games)
    assert sum(r.games for r in s.role_rates) == sum(g.seats for g in games)
    assert sum(r.wins for r in s.role_rates) == sum(len(g.winners) for g in games)
    fake = next(p for p in s.players if p.player == "fakellm")
    assert fake.model == MODEL_LABEL and fake.cost_usd > 0 and fake.model_calls > 0
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0) and wilson(0, 4)[0] == 0.0 and wilson(4, 4)[1] == 1.0


def test_report_files_are_offline_and_per_game(
    run: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rep"
    assert cli(["report", str(run.root), "--out", str(out), "--workers", "1"]) == 0
    assert capsys.readouterr().out.startswith(f"report: {out / 'index.html'} (4 games, ")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    roles = html[
        html.index('id="front-roles"') : html.index("</section>", html.index("front-roles"))
    ]
    assert "<svg" in html and roles.count('<g class="interval">') == len(
        summarize("x", run.games(), None).role_rates
    )  # a bar per player × role in the front's role panels
    files = sorted(p.name for p in (out / "games").iterdir())
    assert files == sorted(f"{g.game_id}.js" for g in run.games())
    listed = json.loads(re.search(r'id="game-data">(.*?)</script>', html, re.S).group(1))
    assert sorted(row[0] for row in listed["rows"]) == sorted(g.game_id for g in run.games())
    assert all(row[10] == 0 for row in listed["rows"])  # plain ids: the file is games/<id>.js
    for g in run.games():
        text = (out / "games" / f"{g.game_id}.js").read_text(encoding="utf-8")
        assert text.startswith("BangReport.gameLoaded({") and text.endswith("});\n")
        assert "</script" not in text.lower()


def test_game_payload_steps_follow_the_game(run: RunStore) -> None:
    gid = run.games()[3].game_id
    start, decisions, end = run.read_game(gid)
    prompts = {p["sha256"]: p["text"] for p in run.system_prompts()}
    data = game_payload(start, decisions, end, prompts)
    assert data["warn"] is None
    assert len(data["steps"]) == len(decisions) + 1
    assert len(data["events"]) == len(end.events)
    assert [s["d"]["i"] for s in data["steps"][:-1]] == [d.index for d in decisions]
    assert "d" not in data["steps"][-1]
    # Rebuild the state of every step from the deltas and compare hands with the engine.
    state: dict = {}
    for st, s in zip(replay_steps(start, decisions), data["steps"], strict=True):
        state.update(s["x"])
        assert s["e"] == len(st.game.events)
        for seat in st.game.seats:
            assert len(state[f"h{seat.index}"]) == len(seat.hand)
            assert state[f"s{seat.index}"][0] == seat.hp
    model_steps = [s["d"] for s in data["steps"][:-1] if "m" in s["d"]]
    assert model_steps and all(m["m"]["sys"] in data["prompts"] for m in model_steps)
    assert any(a["rsn"] for m in model_steps for a in m["m"]["att"])


def test_league_runner_records_replay(tmp_path: Path) -> None:
    """A real (bot-only) league run written by the league runner verifies game by game."""
    pytest.importorskip("harness.agents.model_spec", reason="the league config needs model_spec")
    import asyncio

    from harness.league.league_config import parse_config
    from harness.league.runner import LeagueRunner

    config = parse_config(
        {
            "name": "mini",
            "players": [{"name": "rulebot", "kind": "bot"}, {"name": "random", "kind": "random"}],
            "tables": [
                {"seats": [4, 6], "modes": ["classic"]},
                {"seats": [5], "modes": ["double_agent"]},
            ],
            "games_per_table": 2,
        }
    )
    runner = LeagueRunner(config, tmp_path / "mini", workers=1)
    asyncio.run(runner.run())
    store = RunStore(tmp_path / "mini")
    assert len(store.games()) == 6
    for g in store.games():
        assert replay_game(store, g.game_id).ok
    result = build_report(store.root, workers=1)
    assert result.games == 6 and (store.root / "report" / "index.html").exists()


def test_a_model_players_decisions_are_the_ones_its_fallback_rate_is_over(
    run: RunStore, tmp_path: Path
) -> None:
    """The report's player table names one denominator: a model player's decisions column counts
    its model decisions (more than one option), the ones its fallback rate is over, and gives its
    single-option decisions apart."""
    out = tmp_path / "rep"
    assert cli(["report", str(run.root), "--out", str(out), "--workers", "1"]) == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    table = html[
        html.index('id="player-table"') : html.index("</table>", html.index("player-table"))
    ]
    fake = next(
        p for p in summarize("x", run.games(), None, run.root).players if p.player == "fakellm"
    )
    assert fake.counts is not None and fake.model_decisions == fake.counts.decisions
    assert fake.decisions == fake.model_decisions + fake.single_option and fake.single_option > 0
    row = next(r for r in table.split("<tr>") if "fakellm" in r)
    cells = re.findall(r'<td class="n">(.*?)</td>', row, re.S)
    assert cells[2].startswith(f"{fake.model_decisions} ")  # after seat-games and win rate
    assert f"(+{fake.single_option} with one option, no model call)" in cells[2]
    assert fake.fallback_rate == pytest.approx(fake.fallback_total / fake.model_decisions)
