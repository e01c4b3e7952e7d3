"""One model compared across the five languages (issue 15): a tiny configs/locales.yaml against
the fake OpenAI server on 127.0.0.1 — every player's seats are prompted in its own `locale`, and
the league report, its CSV and the HTML report show the model's win rate by role per language
over the same deals."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.league.league_config import load_config
from harness.paths import CONFIGS_DIR
from harness.play.players import Locale
from harness.runs import build_report
from harness.views.glossary import LOCALES, glossary
from harness.views.prompts import system_prompt_text
from tests.fakes.openai_server import FakeOpenAIServer

pytest.importorskip("openai")


def test_the_config_locale_is_every_language() -> None:
    from typing import get_args

    assert get_args(Locale) == LOCALES
    config = load_config(CONFIGS_DIR / "locales.yaml")
    assert [config.locale_of(p.name) for p in config.players] == list(LOCALES)
    assert len({p.model.label for p in config.players if p.model}) == 1  # one model


def test_a_bot_takes_no_locale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(
        "name: bad\nplayers:\n  - {name: b, kind: bot, locale: ar}\n  - {name: r, kind: random}\n"
        "tables:\n  - seats: [4]\ngames_per_table: 1\n",
        encoding="utf-8",
    )
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "players.0" in err and "reads no text" in err


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    tmp = tmp_path_factory.mktemp("locales")
    data = yaml.safe_load((CONFIGS_DIR / "locales.yaml").read_text(encoding="utf-8"))
    with FakeOpenAIServer() as server:
        for p in data["players"]:
            p["model"] = {**p["model"], "base_url": server.base_url}
        data.update(games_per_table=5, decision_seconds=20, max_concurrent_games=5)
        cfg = tmp / "locales.yaml"
        cfg.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        argv = ["league", "run", str(cfg), "--output", str(tmp / "out"), "--no-progress"]
        assert main(argv) == 0
        systems = [
            next(m["content"] for m in r.body["messages"] if m["role"] == "system")
            for r in server.script.model_requests
        ]
    return tmp / "out" / "locales", systems


def test_every_player_is_prompted_in_its_language(run: tuple[Path, list[str]]) -> None:
    _, systems = run
    # the config's players read the brief rules (its `rules: brief`)
    assert {s for s in systems} == {system_prompt_text(loc, rules="brief") for loc in LOCALES}


def test_the_league_report_shows_win_rates_by_role_per_language(
    run: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Paired 5-seat classic tables: one deal played from all five seats, so each language held
    every seat once — 5 seat-games, and the same roles (Marshal, Deputy, Loner 1, Raider 2)."""
    run_dir, _ = run
    df = build_report(run_dir, bootstrap=50).locales
    assert set(df["model"]) == {"openai/local-model"}
    assert list(dict.fromkeys(df["locale"])) == list(LOCALES)
    assert set(df["deals"]) == {1}
    games = {(r["role"], r["locale"]): r["games"] for r in df.to_dict("records")}
    for loc in LOCALES:
        assert games["all", loc] == 5
        assert [games[role, loc] for role in ("marshal", "deputy", "raider", "loner")] == [
            1,
            1,
            2,
            1,
        ]
    wins = df[df["role"] == "all"]["wins"].sum()
    assert wins == df[df["role"] != "all"]["wins"].sum()

    assert main(["league", "report", str(run_dir), "--bootstrap", "50"]) in (0, 3)
    out = capsys.readouterr().out
    assert "Win rate by role per language" in out
    saved = list(csv.DictReader((run_dir / "report" / "locale_win_rates.csv").open()))
    assert len(saved) == len(df) == 5 * 5  # (all + 4 roles) × 5 languages
    md = (run_dir / "report" / "report.md").read_text(encoding="utf-8")
    header = next(line for line in md.splitlines() if line.startswith("| model | role | deals"))
    assert header == "| model | role | deals | en | ru | zh | ja | ar |"


def test_the_html_report_shows_the_languages_side_by_side(
    run: tuple[Path, list[str]], tmp_path: Path
) -> None:
    run_dir, _ = run
    assert main(["report", str(run_dir), "--out", str(tmp_path), "--locale", "ar"]) == 0
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    table = html[
        html.index('id="locale-table"') : html.index("</table>", html.index('id="locale-table"'))
    ]
    # each language column is headed by the language's own name (its glossary's)
    assert [f"<th>{glossary(loc).language}</th>" in table for loc in LOCALES] == [True] * 5
    assert table.count("<tr>") == 1 + 5
    assert 'dir="rtl"' in html and "المارشال" in table
    game = next((tmp_path / "games").glob("*.js")).read_text(encoding="utf-8")
    assert '"mode":"الكلاسيكي"' in game and "يلعب" in game  # the game text, in Arabic
