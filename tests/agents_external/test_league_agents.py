"""One league seats a Python agent and a remote agent with rule bots, and agents that raise,
hang, answer garbage and answer 10 MB: the run completes, every misbehaviour is a recorded
fallback with its reason, usage is in the spend ledger, the agents are reported like model
players in every report format (terminal, Markdown, CSV, HTML), and ``replay`` verifies the
games.  A deterministic agent's league replays identically from the seed."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.records import RunStore
from harness.runs.flags import EXIT_FLAGGED

from .servers import reference_server

AGENTS = "tests.agents_external.agents"
MISBEHAVING = {  # player: (mode, every, fallback reason, attempt error kind)
    "raiser": ("raise", 3, "error", "agent_error"),
    "hanger": ("hang", 1000, "timeout", "timeout"),  # its first decision of each game
    "garbage": ("garbage", 3, "invalid_answer", "unparseable"),
    "huge": ("huge", 3, "invalid_answer", "oversized"),
}


def league_yaml(url: str, name: str = "agents", misbehaving: bool = True, **extra: object) -> str:
    players = [
        {"name": "py", "kind": "agent", "agent": f"{AGENTS}:seeded", "options": {"salt": "a"}},
        {"name": "rem", "kind": "remote", "url": url},
        {"name": "bot1", "kind": "bot"},
        {"name": "bot2", "kind": "bot"},
    ]
    if misbehaving:
        players += [
            {"name": p, "kind": "agent", "agent": f"{AGENTS}:Misbehaving",
             "options": {"mode": mode, "every": every}}
            for p, (mode, every, *_) in MISBEHAVING.items()
        ]  # fmt: skip
    config = {
        "name": name,
        "players": players,
        "tables": [{"seats": [len(players)]}],
        "games_per_table": 2,
        "paired": False,
        "decision_seconds": 2 if misbehaving else 5,
        **extra,
    }
    return json.dumps(config)  # JSON is YAML


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with reference_server() as url:
        yield url


@pytest.fixture(scope="module")
def run(server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("agents")
    (root / "agents.yaml").write_text(league_yaml(server), encoding="utf-8")
    argv = ["league", "run", str(root / "agents.yaml"), "--output", str(root / "out"),
            "--no-progress"]  # fmt: skip
    # the misbehaving players' fallback rates flag the run (exit 3); every game finished
    assert main(argv) == EXIT_FLAGGED
    return root / "out" / "agents"


def test_the_run_completes_and_each_misbehaviour_is_a_recorded_fallback(run: Path) -> None:
    store = RunStore(run)
    games = store.games()
    assert len(games) == 2 and not any(g.void for g in games)
    reasons: dict[str, Counter[tuple[str | None, str | None]]] = {}
    for g in games:
        start, decisions, _ = store.read_game(g.game_id)
        kinds = {s.player: s.kind for s in start.seating}
        assert kinds["py"] == "agent" and kinds["rem"] == "remote"
        for d in decisions:
            if d.player in MISBEHAVING and len(d.options) > 1:
                assert d.model is not None  # recorded like a model seat's decision
                last = d.model["attempts"][-1]["error_kind"]
                reasons.setdefault(d.player, Counter())[(d.fallback, last)] += 1
            if d.player in ("py", "rem") and len(d.options) > 1:
                assert d.fallback is None and d.model["chosen"] == d.chosen
                assert d.model["view"]["decision"]["kind"] == d.decision_kind
    for player, (_, _, reason, kind) in MISBEHAVING.items():
        got = reasons[player]
        assert got[(reason, kind)] > 0 and got[(None, None)] > 0, (player, got)
        assert set(got) == {(reason, kind), (None, None)}, (player, got)


def test_usage_is_in_the_spend_ledger_and_the_seat_outcomes(run: Path) -> None:
    lines = [json.loads(x) for x in (run / "spend.jsonl").read_text().splitlines()]
    py = [x for x in lines if x["player"] == "py"]
    assert py and all(x["provider"] == "agent" and x["model"] == "seeded-1" for x in py)
    assert all(x["cost_usd"] == 0.001 and x["input_tokens"] == 100 for x in py)
    cost = sum(o.cost_usd for g in RunStore(run).games() for o in g.seat_outcomes
               if o.player == "py")  # fmt: skip
    assert cost == pytest.approx(0.001 * len(py))
    failed = Counter(x["error_kind"] for x in lines if x["player"] == "raiser")
    assert failed["agent_error"] > 0 and failed[None] > 0


def test_agents_are_reported_like_model_players_in_every_format(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["league", "report", str(run), "--bootstrap", "0"]) == EXIT_FLAGGED
    out = " ".join(capsys.readouterr().out.split())
    assert "Model seats" in out
    report = run / "report"
    md = (report / "report.md").read_text(encoding="utf-8")
    model_section = md[md.index("## Model seats") :].split("\n## ")[0]
    for player in ("py", "rem", *MISBEHAVING):
        assert f"| {player} |" in model_section, player
    rates = {r["player"]: r for r in csv.DictReader((report / "rates.csv").open())}
    assert rates["py"]["kind"] == "agent" and rates["py"]["model"] == f"agent/{AGENTS}:seeded"
    assert rates["rem"]["kind"] == "remote" and rates["rem"]["model"].startswith("remote/http")
    for player in ("py", "rem", *MISBEHAVING):
        assert float(rates[player]["model_decisions"]) > 0 < float(rates[player]["model_calls"])
    assert rates["bot1"]["model_decisions"] == ""
    flagged = {r["player"] for r in csv.DictReader((report / "flags.csv").open())
               if r["kind"] == "fallbacks"}  # fmt: skip
    assert set(MISBEHAVING) <= flagged and not {"py", "rem"} & flagged
    assert main(["report", str(run), "--no-progress"]) == 0
    html = (report / "index.html").read_text(encoding="utf-8")
    for label in (f"agent/{AGENTS}:seeded", "remote/http://127.0.0.1"):
        assert label in html


def test_replay_verifies_every_game(run: Path) -> None:
    assert main(["replay", str(run), "--no-progress"]) == 0


def test_a_deterministic_league_replays_identically_from_the_seed(
    server: str, tmp_path: Path
) -> None:
    events = []
    for n in (1, 2):
        cfg = tmp_path / f"{n}.yaml"
        cfg.write_text(league_yaml(server, name="det", misbehaving=False), encoding="utf-8")
        out = tmp_path / f"out{n}"
        assert main(["league", "run", str(cfg), "--output", str(out), "--no-progress"]) == 0
        store = RunStore(out / "det")
        events.append([store.read_game(g.game_id)[2].events for g in store.games()])
    assert events[0] == events[1] and len(events[0]) == 2


def test_spending_caps_count_the_agents_usage(
    server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "cap.yaml"
    cfg.write_text(league_yaml(server, name="cap", misbehaving=False,
                               spending={"max_usd": 0.005}), encoding="utf-8")  # fmt: skip
    code = main(["league", "run", str(cfg), "--output", str(tmp_path / "o"), "--no-progress"])
    assert code == 2 and "spending cap reached" in capsys.readouterr().err
    spent = [
        json.loads(x) for x in (tmp_path / "o" / "cap" / "spend.jsonl").read_text().splitlines()
    ]
    assert 0.005 < sum(x["cost_usd"] or 0 for x in spent) < 0.02


@pytest.mark.parametrize(
    "player, message",
    [
        ({"kind": "agent", "agent": "no.such.module:f"}, "cannot import 'no.such.module'"),
        ({"kind": "agent", "agent": "not a path"}, "is not of the form"),
        ({"kind": "agent"}, "needs 'agent: package.module:factory'"),
        ({"kind": "remote", "url": "ftp://x/"}, "must be http:// or https://"),
        ({"kind": "bot", "url": "http://x/"}, "takes no 'url'"),
        ({"kind": "remote", "url": "http://x/", "options": {}}, "takes no 'options'"),
        (
            {"kind": "agent", "agent": f"{AGENTS}:Seeded", "options": {"sal": 1}},
            "options do not fit tests.agents_external.agents:Seeded: got an unexpected keyword",
        ),
    ],
)
def test_a_bad_agent_player_is_a_one_line_config_error(
    player: dict[str, object], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "bad.yaml"
    players = [{"name": "x", **player}, {"name": "b", "kind": "bot"}]
    cfg.write_text(json.dumps({"name": "bad", "players": players, "tables": [{"seats": [4]}],
                               "games_per_table": 1}), encoding="utf-8")  # fmt: skip
    capsys.readouterr()
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o").exists()


def test_a_resumed_game_continues_with_its_agents(server: str, tmp_path: Path) -> None:
    """A game stopped mid-way (its file keeps the first decisions) is continued by --resume:
    the recorded decisions are replayed without asking the agents, then they play on."""
    cfg = tmp_path / "res.yaml"
    cfg.write_text(league_yaml(server, name="res", misbehaving=False), encoding="utf-8")
    argv = ["league", "run", str(cfg), "--output", str(tmp_path / "o"), "--no-progress"]
    assert main(argv) == 0
    run = tmp_path / "o" / "res"
    store = RunStore(run)
    first, *rest = store.games()

    def asked(game_id: str) -> int:  # messages the py agent answered in that game
        spend = [json.loads(x) for x in (run / "spend.jsonl").read_text().splitlines()]
        return sum(1 for x in spend if x["player"] == "py" and x["game_id"] == game_id)

    before = asked(first.game_id)
    path = store.games_dir / f"{first.game_id}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = lines[: 1 + 40]  # the start line and 40 decisions
    path.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    (run / "games.jsonl").write_text("".join(g.model_dump_json() + "\n" for g in rest))
    assert main([*argv, "--resume"]) == 0
    resumed = {g.game_id: g for g in RunStore(run).games()}[first.game_id]
    start, decisions, _ = RunStore(run).read_game(first.game_id)
    assert [json.loads(x)["chosen"] for x in kept[1:]] == [d.chosen for d in decisions[:40]]
    later = [d for d in decisions[40:] if d.player in ("py", "rem") and len(d.options) > 1]
    assert later and all(d.fallback is None and d.model is not None for d in later)
    # the replayed decisions were not asked again: only the ones after them
    py_later = [d for d in later if d.player == "py"]
    assert asked(first.game_id) - before == len(py_later)
    assert resumed.winning_side and main(["replay", str(run), "--no-progress"]) == 0
