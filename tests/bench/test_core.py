"""The shared core of the benchmarks (harness.bench.core) and their one-line errors: rounds, load
average, the final JSON line, and bad options ending with one line on stderr and exit code 2."""

from __future__ import annotations

import json
import os

import pytest

from harness.bench.core import LoadAverage, cpu_seconds, print_result, rounds
from harness.cli.main import main


@pytest.mark.parametrize(("total", "n"), [(10, 3), (7, 7), (2, 5), (1000, 4)])
def test_rounds_add_up_and_differ_by_at_most_one(total: int, n: int) -> None:
    parts = rounds(total, n)
    assert len(parts) == n and sum(parts) == total
    assert max(parts) - min(parts) <= 1 and parts == sorted(parts, reverse=True)


def test_load_average_reports_before_and_after() -> None:
    load = LoadAverage()
    before, after = load.after()
    assert before == round(load.before, 2) and after >= 0.0
    assert load.line([1.234, 2.0]) == (
        f"load average (1 min) 1.23 before, 2.00 after, on {os.cpu_count()} cores"
    )


def test_cpu_seconds_grow_with_work() -> None:
    t0 = cpu_seconds()
    sum(i * i for i in range(300_000))
    assert cpu_seconds() > t0
    own = cpu_seconds()
    assert cpu_seconds(children=True) >= own  # measured later, and with the children's too


def test_the_final_line_is_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert print_result({"benchmark": "x", "figures": {"a": 1}}) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out) == {"benchmark": "x", "figures": {"a": 1}}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "caps", "--latency", "-1"], "--latency must be 0 or more"),
        (["bench", "deadlines", "--timer", "0"], "--timer must be positive"),
        (["bench", "serve", "--pause", "-1"], "--pause cannot be negative"),
        (["bench", "report", "--run", "/nonexistent/run", "--no-browser"], "/nonexistent/run"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bangarena: error: ") and message in err[0]
    assert "Traceback" not in captured.err and captured.out == ""
