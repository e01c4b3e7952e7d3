"""`bangarena play`: a person plays in the terminal (RULES.md §3 decision timer, Ruling R-5)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CMD = [sys.executable, "-m", "harness.cli.main", "play", "--seats", "4", "--seed", "3",
       "--opponents", "random"]  # fmt: skip


def run(args: list[str], stdin: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CMD, *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)  # fmt: skip


def test_person_plays_a_whole_game_by_number_and_id() -> None:
    answers = "nonsense\n" + "end\n" + "1\n" * 600
    p = run([], answers)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "'nonsense' is not an option: enter a number from 1 to" in out
    assert "Your hand (" in out and "turn: Ada" in out and "Your choice (1–" in out
    assert "**" not in out  # drawn as a table and a panel, not raw Markdown
    assert out.rstrip().endswith(("You win!", "You lose.", "the game is abandoned."))
    assert "Game over" in out or "abandoned" in out
    assert "Traceback" not in p.stderr


def test_without_a_terminal_or_pipe_on_stdin_it_says_it_cannot_read_moves() -> None:
    """A file or /dev/null cannot be waited on for typed moves: one line, exit 2 — the seat is
    not handed to the autopilot and no "You win!" is printed."""
    with open(os.devnull) as devnull:
        p = subprocess.run(CMD, stdin=devnull, capture_output=True, text=True, cwd=ROOT,
                           timeout=60)  # fmt: skip
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and "cannot read your moves" in p.stderr
    assert p.stdout == ""


def test_help_describes_the_options_as_drawn() -> None:
    p = run([], "?\n")
    assert "the word after the number, such as end or play:shot@2" in p.stdout
    assert "Your cards:" in p.stdout and "Characters at the table:" in p.stdout  # what they do
    assert "`" not in p.stdout  # no backticks are drawn


def test_end_of_input_abandons_the_game_cleanly() -> None:
    p = run([], "1\n")
    assert p.returncode == 0
    assert "Input ended — the game is abandoned." in p.stdout
    assert "Traceback" not in p.stderr


def test_timer_makes_the_simplest_move_and_says_so() -> None:
    silent_r, silent_w = os.pipe()  # input that stays open and silent: the person never answers
    proc = subprocess.Popen([*CMD, "--time", "0.2"], stdin=silent_r, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    os.close(silent_r)
    try:
        out, err = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    finally:
        os.close(silent_w)
    assert proc.returncode == 0, err
    assert "⏱ Time is up — the simplest move was made for you:" in out
    assert "Traceback" not in err


def _wait_for(proc: subprocess.Popen[str], marker: str, timeout: float = 120) -> None:
    """Read the process's output until ``marker`` appears (the prompt is printed without a newline,
    so the raw pipe is read), so a signal is sent only once the command is waiting for input."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while marker.encode() not in seen:
        assert time.monotonic() < deadline, f"no {marker!r} in {seen[-300:]!r}"
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 4096)
            assert chunk, f"the command ended before {marker!r}: {seen[-300:]!r}"
            seen += chunk


def test_ctrl_c_ends_cleanly() -> None:
    proc = subprocess.Popen(CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    _wait_for(proc, "Your choice (1–")  # waiting for the person's first answer, however slow
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
