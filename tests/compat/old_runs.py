"""Run folders written by the code before the play floor and the split of the league (commit
:data:`OLD_COMMIT`), kept in ``tests/compat/old_runs/`` so that the tests can read, replay and
resume them with the code of today.

``python -m tests.compat.old_runs`` makes them again (only for a deliberate change of what is
kept): it exports :data:`OLD_COMMIT` with ``git archive`` into a temporary folder and runs that
code's ``bangarena`` against a fake OpenAI server of this tree on 127.0.0.1:

* ``complete``: a league of a model player and three rule bots, run to its end, with the text
  its ``league report --no-save`` printed (``complete.league_report.txt``);
  and the SHA-256 of the replay viewer's data of each game in its HTML report
  (``complete.replay_data.json``; the report's page itself changed since);
* ``stopped``: the same league stopped by its token cap in the middle of a game (one game at a
  time, so the stop falls at the same decision every time).

The fake server's address is written in the folders as :data:`PORT_MARK`; a test puts its own
server's address in its place before it reads or resumes a copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import yaml

from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "old_runs"
OLD_COMMIT = "63678bf0ddb625f4268b550838c2473178e9ac31"
PORT_MARK = "127.0.0.1:PORT"
CAP_TOKENS = 300_000  # the stopped run's token cap: passed in its third game
URL = re.compile(r"127\.0\.0\.1:\d+")


def league(name: str, base_url: str, **over: Any) -> dict[str, Any]:
    # both runs are named "old": the folders differ (out-complete/old, out-stopped/old)
    """A model player (fake server, first-option answers) and three rule bots at 4 seats."""
    model = {"price": {"input": 1.0, "output": 2.0}, "params": {"max_tokens": 64}}
    data: dict[str, Any] = {
        "name": name,
        "players": [model_player("model", base_url, **model)]
        + [{"name": f"bot-{i}", "kind": "bot"} for i in range(3)],
        "tables": [{"seats": [4]}],
        "games_per_table": 3,
        "base_seed": 11,
        "decision_seconds": 30,
        "max_concurrent_games": 1,
        "providers": {"openai": {"concurrency": 1}},
        "output": f"out-{name}",
    }
    data.update(over)
    return data


def bangarena(code: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``bangarena ARGS`` of the code in ``code``, the fake's key in the environment."""
    env = {**os.environ, KEY_ENV: SECRET_KEY, "PYTHONPATH": str(code), "COLUMNS": "160"}
    return subprocess.run(
        [sys.executable, "-m", "harness.cli.main", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip


def mark_ports(folder: Path) -> None:
    """Replace the fake server's address with :data:`PORT_MARK` in every text file."""
    for f in folder.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            f.write_text(URL.sub(PORT_MARK, text), encoding="utf-8")


def put_port(folder: Path, base_url: str) -> None:
    """A copy's :data:`PORT_MARK` replaced by ``base_url``'s address."""
    address = URL.search(base_url)
    assert address is not None, base_url
    for f in folder.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            if PORT_MARK in text:
                f.write_text(text.replace(PORT_MARK, address.group()), encoding="utf-8")


def export(commit: str, into: Path) -> Path:
    archive = into / "code.tar"
    subprocess.run(["git", "archive", "-o", str(archive), commit], cwd=ROOT, check=True)
    code = into / "code"
    with tarfile.open(archive) as tar:
        tar.extractall(code, filter="data")
    return code


def make() -> None:
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAIServer() as server:
        work = Path(tmp)
        code = export(OLD_COMMIT, work)
        runs: dict[str, Path] = {}
        for name, over in (
            ("complete", {}),
            ("stopped", {"spending": {"max_tokens": CAP_TOKENS}}),
        ):
            cfg = work / f"{name}.yaml"
            data = league(name, server.base_url, **over)
            data["name"] = "old"
            cfg.write_text(yaml.safe_dump(data))
            done = bangarena(code, work, "league", "run", str(cfg), "--no-progress",
                             "--no-preflight")  # fmt: skip
            print(f"{name}: exit {done.returncode} {done.stderr.strip()[-300:]}")
            runs[name] = work / f"out-{name}" / "old"
        report = bangarena(code, work, "league", "report", str(runs["complete"]), "--no-save",
                           "--no-progress")  # fmt: skip
        assert report.returncode == 0, report.stderr
        shutil.rmtree(HERE, ignore_errors=True)
        HERE.mkdir(parents=True)
        for name, folder in runs.items():
            shutil.copytree(folder, HERE / name)
            mark_ports(HERE / name)
        text = report.stdout.replace(str(runs["complete"]), "RUN")
        (HERE / "complete.league_report.txt").write_text(text, encoding="utf-8")
        html = bangarena(code, work, "report", str(HERE / "complete"), "--out", str(work / "html"),
                         "--workers", "1", "--no-progress")  # fmt: skip
        assert html.returncode == 0, html.stderr
        (HERE / "complete.replay_data.json").write_text(
            json.dumps(replay_data(work / "html"), indent=1, sort_keys=True) + "\n"
        )


def replay_data(report: Path) -> dict[str, str]:
    """The SHA-256 of each game's replay-viewer data file of an HTML report (``games/*.js``)."""
    return {
        f.name: hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted((report / "games").glob("*.js"))
    }


if __name__ == "__main__":
    make()
