"""English counts agree with their nouns ("1 game", "2 games", "0 games") in the feed, the option
labels, the terminal lines of ``league run``, ``league report``, ``report`` and ``replay`` and the
league runner's stop messages (spending cap, interrupt); the rule is the one every locale shares
(``prompts/plural.j2``, English: one for 1, other else)."""

from __future__ import annotations

import re
import signal
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.cli.main import main
from harness.league.runner import LeagueRunner
from harness.league.runner import Progress as RunProgress
from harness.play.players import SpendingCaps
from harness.views.narrate import Narrator
from harness.views.option_labels import _module as option_templates
from harness.views.plural import count

NOUN = {0: "cards", 1: "card", 2: "cards"}


@pytest.mark.parametrize(("n", "said"), [(0, "0 games"), (1, "1 game"), (2, "2 games")])
def test_count_agrees_with_the_number(n: int, said: str) -> None:
    assert count(n, "game") == said
    assert count(n, "paired deal", "paired deals") == said.replace("game", "paired deal")


@pytest.mark.parametrize("n", [0, 1, 2])
def test_feed_lines_count_cards(n: int) -> None:
    narrate = Narrator(["Ada", "Bill"]).line
    assert (
        narrate({"t": "shuffle", "n": n, "why": "deal"}) == f"The deck is shuffled ({n} {NOUN[n]})."
    )
    assert narrate({"t": "shuffle", "n": n}).endswith(f"new deck ({n} {NOUN[n]}).")
    assert narrate({"t": "look", "seat": 0, "n": n}) == f"Ada looks at {n} {NOUN[n]} from the deck."


@pytest.mark.parametrize("n", [0, 1, 2])
def test_the_option_to_draw_from_a_hand_counts_its_cards(n: int) -> None:
    action = SimpleNamespace(verb="draw", arg="hand", target=1, extra=None)
    label = option_templates("en").label(
        a=action, kind="draw", name="Bill", distance=1, hand=n, discard_top=None
    )
    assert str(label).strip() == f"Take a random card from Bill's hand ({n} {NOUN[n]})"


CONFIG = """\
name: counts{games}
players:
  - name: rulebot
    kind: bot
tables:
  - seats: [4]
    modes: [classic]
games_per_table: {games}
base_seed: 5
paired: false
"""


@pytest.mark.parametrize(("games", "noun"), [(1, "game"), (2, "games")])
def test_terminal_lines_of_a_run_count_its_games(
    games: int, noun: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "counts.yaml"
    cfg.write_text(CONFIG.format(games=games), encoding="utf-8")
    out_dir = tmp_path / "out"
    run = ["league", "run", str(cfg), "--output", str(out_dir), "--workers", "1", "--no-progress"]
    assert main(run) == 0
    ran = capsys.readouterr()
    run_dir = out_dir / f"counts{games}"
    assert f"league counts{games}: {games} {noun} (0 already finished)" in ran.out
    assert f"finished {games}/{games} {noun} in " in ran.err

    assert main(["league", "report", str(run_dir), "--bootstrap", "5"]) == 0
    report = capsys.readouterr().out
    seats = 4 * games
    headline = f"League report — run counts{games}: {games} {noun}, {seats} seats (4p classic: "
    assert f"{headline}{games} {noun})" in report

    assert main(["replay", str(run_dir), "--no-progress"]) == 0
    verified = capsys.readouterr().out.strip()
    assert re.fullmatch(rf"verified: {games} {noun}, \d+ decisions, \d+ events", verified)

    assert main(["report", str(run_dir), "--no-progress", "--workers", "1"]) == 0
    assert f"index.html ({games} {noun}, " in capsys.readouterr().out


@pytest.mark.parametrize(("n", "noun"), [(0, "games"), (1, "game"), (2, "games")])
def test_the_runner_stop_messages_count_games(n: int, noun: str) -> None:
    runner = LeagueRunner.__new__(LeagueRunner)  # only the fields the messages read
    runner.progress = RunProgress(total=n)
    runner.config = SimpleNamespace(spending=SpendingCaps(max_tokens=1))  # type: ignore[assignment]
    reason = runner._cap_reason(0.0, 5)
    assert reason is not None and f"; 0 of {n} {noun} finished (raise the cap" in reason
    runner.interrupted = signal.SIGINT
    runner.unfinished = {f"g{i}" for i in range(n)}
    message = runner._interrupt_message()
    assert message.startswith(f"interrupted by SIGINT: 0 of {n} {noun} finished")
    kept = {0: "", 1: "; 1 unfinished game keeps", 2: "; 2 unfinished games keep"}[n]
    assert message.removeprefix(f"interrupted by SIGINT: 0 of {n} {noun} finished").startswith(kept)
