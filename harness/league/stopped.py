"""The record of a run that stopped before its first game: ``results/<run>/stopped.json``.

A preflight that refuses the run (:mod:`harness.league.preflight`) has often spent real calls
already — the sample decision, and the same sample in other answer modes.  ``league run`` then
still opens the run folder with its ``config.json``, the preflight's calls in ``spend.jsonl``
(:mod:`harness.play.ledger`) and this record of why it stopped, so ``league report`` can show
the bill and the reason instead of "no finished games yet".  A run stopped only by a preflight
(no game started) is started afresh by the next ``league run``, with or without ``--resume`` and
whatever its config now says; its ledger keeps the earlier calls, so a spending cap counts them.
A run whose only calls failed to connect (nothing reached a server) writes no folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from harness.play.ledger import SPEND_FILE, SpendLine, append_spend, now_utc

__all__ = [
    "STOPPED_FILE",
    "StoppedRun",
    "clear_stopped",
    "only_stopped",
    "read_stopped",
    "reached_a_server",
    "write_preflight_stop",
]

STOPPED_FILE = "stopped.json"
CONFIG_FILE = "config.json"  # as harness.league.runner.CONFIG_FILE


class StoppedRun(BaseModel):
    """Why and when a run stopped before its first game."""

    model_config = ConfigDict(extra="forbid")

    at: str  # UTC
    stage: Literal["preflight"] = "preflight"
    reason: str  # the one line ``league run`` printed
    exit_code: int = 2
    calls: int = 0  # the preflight's calls, each a line of spend.jsonl


def reached_a_server(spend: Sequence[SpendLine]) -> bool:
    """Whether any call got further than a failed connection (it may have been processed)."""
    return any(line.error_kind != "connection_error" for line in spend)


def write_preflight_stop(
    run_dir: Path, config_json: dict[str, object], reason: str, spend: Sequence[SpendLine]
) -> None:
    """Open ``run_dir`` for a run the preflight stopped: ``config.json`` (when the folder has
    none), the preflight's calls appended to ``spend.jsonl`` and ``stopped.json``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    cfg = run_dir / CONFIG_FILE
    if not cfg.exists():
        _write(cfg, json.dumps(config_json, indent=1, ensure_ascii=False) + "\n")
    append_spend(run_dir / SPEND_FILE, spend)
    record = StoppedRun(at=now_utc(), reason=reason, calls=len(spend))
    _write(run_dir / STOPPED_FILE, record.model_dump_json(indent=1) + "\n")


def read_stopped(run_dir: str | Path) -> StoppedRun | None:
    """The run's stop record, ``None`` when it has none (or an unreadable one)."""
    path = Path(run_dir) / STOPPED_FILE
    try:
        return StoppedRun.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValidationError):
        return None


def only_stopped(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds a run the preflight stopped before any game was written."""
    return (
        read_stopped(run_dir) is not None
        and not (run_dir / "games.jsonl").exists()
        and not (run_dir / "games").exists()
    )


def clear_stopped(run_dir: Path) -> None:
    """The run starts after all: its stop record goes (its ledger stays)."""
    (run_dir / STOPPED_FILE).unlink(missing_ok=True)


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
