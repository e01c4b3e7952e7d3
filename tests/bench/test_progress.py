"""The shared progress display (harness.bench.progress_display): a bar on a terminal, a plain line every
10 s otherwise, and the commands that use it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from harness.bench.progress_display import Progress, duration
from harness.cli.main import main


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_every_10_seconds_with_eta_and_a_last_line() -> None:
    out, clock = io.StringIO(), Clock()
    with Progress("balance", 100, unit="tables", stream=out, clock=clock) as bar:
        for _ in range(10):  # 10 tables at 1 s each: no line before 10 s have passed
            clock.now += 1
            bar.advance(1)
        clock.now += 1
        bar.advance(10, note="fallbacks 0")
    lines = out.getvalue().splitlines()
    assert lines[0] == "balance: 10/100 tables (10.0 %) · 10 s · ETA 1 min 30 s"
    assert lines[1] == "balance: 20/100 tables (20.0 %) · done in 11 s · fallbacks 0"
    assert len(lines) == 2


def test_no_total_no_eta_and_a_stopped_run_says_so() -> None:
    out, clock = io.StringIO(), Clock()
    with pytest.raises(KeyboardInterrupt), Progress("replay", None, stream=out, clock=clock) as b:
        clock.now += 12
        b.advance(3)
        raise KeyboardInterrupt
    assert out.getvalue().splitlines() == [
        "replay: 3 games · 12 s",
        "replay: 3 games · stopped after 12 s",
    ]


def test_a_terminal_gets_a_bar_and_disabled_shows_nothing() -> None:
    out = io.StringIO()
    with Progress("report", 4, stream=out, terminal=True) as bar:
        for _ in range(4):
            bar.advance()
    text = out.getvalue()
    assert "report" in text and "4/4" in text and "ETA" in text
    quiet = io.StringIO()
    with Progress("report", 4, stream=quiet, enabled=False) as bar:
        bar.advance(4)
    assert quiet.getvalue() == ""


def test_duration() -> None:
    assert [duration(s) for s in (0.4, 59, 61, 3599, 3720)] == [
        "0 s", "59 s", "1 min 01 s", "59 min 59 s", "1 h 02 min"
    ]  # fmt: skip


def test_balance_ends_with_one_short_json_line_and_keeps_every_figure_in_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "bal"
    assert main(["balance", "--games", "1", "--workers", "1", "--out", str(out_dir)]) == 0
    captured = capsys.readouterr()
    last = captured.out.strip().splitlines()[-1]
    assert len(last) < 1000
    short = json.loads(last)
    full = json.loads((out_dir / "balance.json").read_text(encoding="utf-8"))
    assert short["json"] == str(out_dir / "balance.json")
    assert len(full["rows"]) == 20 and set(full["law_balance"]) == set(short["law_balance"])
    # not a terminal: the progress is a plain line on stderr, never on stdout
    assert "balance: 15/15 games (100.0 %) · done in" in captured.err
    assert "done in" not in captured.out


def test_the_heartbeat_prints_while_no_unit_ends() -> None:
    """A unit of work longer than the interval (a league game) still gets its lines."""
    import asyncio

    out = io.StringIO()

    async def long_unit(bar: Progress) -> None:
        beat = asyncio.create_task(bar.heartbeat())
        await asyncio.sleep(0.55)  # nothing advances meanwhile
        beat.cancel()

    with Progress("league", 1, stream=out, interval=0.1, terminal=False) as bar:
        bar.note = "12 decisions"
        asyncio.run(long_unit(bar))
    lines = out.getvalue().splitlines()
    assert len(lines) >= 4, lines  # about one per 0.1 s, then the last line
    assert all(line.startswith("league: 0/1 games (0.0 %) · ") for line in lines[:-1])
    assert lines[0].endswith(" · 12 decisions")
