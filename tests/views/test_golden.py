"""Golden views and prompts (tests/golden/): a change in wording shows up as a reviewable diff.
Regenerate with `python -m tests.golden.regenerate` after an intended change."""

from __future__ import annotations

import difflib

from tests.golden.regenerate import GAMES, HERE, all_files


def test_golden_files_match() -> None:
    fresh = all_files()
    for name, text in fresh.items():
        stored = (HERE / name).read_text(encoding="utf-8")
        if stored != text:
            diff = "".join(
                list(
                    difflib.unified_diff(
                        stored.splitlines(True), text.splitlines(True), name, "fresh", n=1
                    )
                )[:40]
            )
            raise AssertionError(
                f"{name} differs from a fresh render (python -m tests.golden.regenerate):\n{diff}"
            )
    assert len(fresh) == 3 * len(GAMES)
    assert {spec[4] for spec in GAMES} == {"en", "ru", "zh", "ja", "ar"}


def test_golden_views_show_no_hidden_roles_or_hands() -> None:
    """RULES.md §9: a view never names a hidden role of another seat; the golden game's
    roles are checked against the engine's deal."""
    import json

    from harness.engine import Game

    for name, seats, mode, seed, _locale in GAMES:
        game = Game.new(seats, mode, seed)
        roles = [s.role for s in game.seats]
        lines = (HERE / f"{name}.views.jsonl").read_text(encoding="utf-8").splitlines()
        assert lines
        for line in lines:
            view = json.loads(line)
            me = view["you"]["seat"]
            known = {k["seat"] for k in view["knowledge"] if k["kind"] == "role"}
            for s in view["seats"]:
                if s["role"] is not None and s["seat"] != me and s["alive"]:
                    assert s["role"] == "marshal" or s["seat"] in known
                    assert s["role"] == roles[s["seat"]]
