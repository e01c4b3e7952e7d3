"""Every shipped config in ``configs/`` loads, knows the price of each model it names (from
litellm's map or its own ``price:``), reaches its API-key check as it stands, and passes preflight
against the local fake servers (base URLs pointed at them, dummy keys set)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.league.league_config import LeagueConfig, load_config
from harness.league.preflight import preflight
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer

# LiteLLM must use the price map shipped in its wheel, never download one (no network in tests).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("litellm")
# LiteLLM's own pydantic models trigger this third-party warning on first use.
pytestmark = pytest.mark.filterwarnings("ignore:.*ReadOnly. qualifier:UserWarning")

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))
# The keys the shipped configs read (the providers' usual variables).
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY", "MISTRAL_API_KEY",
            "GEMINI_API_KEY", "GOOGLE_API_KEY")  # fmt: skip


def with_servers(config: LeagueConfig, openai_url: str, anthropic_url: str) -> LeagueConfig:
    """``config`` with every model's server replaced by a fake of its wire format."""
    players = []
    for p in config.players:
        if p.model is not None:
            url = anthropic_url if p.model.provider == "anthropic" else openai_url
            p = p.model_copy(update={"model": p.model.model_copy(update={"base_url": url})})
        players.append(p)
    return config.model_copy(update={"players": players})


def test_configs_are_shipped() -> None:
    names = {c.stem for c in CONFIGS}
    assert {"quickstart", "openai", "anthropic", "litellm", "local"} <= names


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_shipped_config_passes_preflight_against_fakes(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in KEY_VARS:
        monkeypatch.setenv(var, "sk-dummy-for-the-fake-server")
    config = load_config(path)
    models = [p for p in config.players if p.model is not None]
    if not models:
        assert preflight(config).results == []
        return
    with FakeOpenAIServer() as oa, FakeAnthropicServer() as an:
        report = preflight(with_servers(config, oa.base_url, an.root_url))
        requests = len(oa.script.model_requests) + len(an.script.model_requests)
    assert [r.player for r in report.results] == [p.name for p in models]
    for r in report.results:
        assert r.record.fallback is None, (r.player, r.record.attempts)
        assert r.record.cost_usd is not None  # the price is known
    assert not [w for w in report.warnings if "unknown price" in w], report.warnings
    assert 0 < requests <= len(models)


@pytest.mark.parametrize(
    "path", [c for c in CONFIGS if c.stem not in ("quickstart", "local", "locales")],
    ids=lambda p: p.stem,
)  # fmt: skip
def test_shipped_config_reaches_its_key_check(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As it stands (no base URL changed), without keys: one line naming the missing variable,
    exit 2, no run folder."""
    for var in KEY_VARS:
        monkeypatch.delenv(var, raising=False)
    assert main(["league", "run", str(path), "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bangarena: error: preflight: player ")
    assert "no API key" in err and "set the environment variable" in err
    assert not (tmp_path / "out").exists()


def test_a_missing_package_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command whose package is missing (here the ratings' openskill) ends with one line and
    exit 2."""
    cfg = tmp_path / "one.yaml"
    cfg.write_text(
        "name: one\nplayers:\n  - {name: rulebot, kind: bot}\n  - {name: random, kind: random}\n"
        "tables:\n  - seats: [4]\ngames_per_table: 1\n",
        encoding="utf-8",
    )
    argv = ["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--workers", "1"]
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert main(["league", "report", str(tmp_path / "out" / "one"), "--no-save"]) == 2
    err = capsys.readouterr().err
    assert err == "bangarena: error: openskill.models is not installed: pip install -e .\n"
