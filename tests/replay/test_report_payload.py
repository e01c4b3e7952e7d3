"""The HTML report's data: the fast per-game payload equals the exact one, the game list is in
natural order, and the charts' geometry covers every value."""

from __future__ import annotations

import asyncio
import math

import pytest

from harness.league.league_config import parse_config
from harness.league.runner import LeagueRunner
from harness.records import RunStore
from harness.report.charts import Interval, interval_chart, nice_ticks
from harness.report.html import game_file_name, game_list, natural_key, sorted_games
from harness.report.payload import game_payload


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> RunStore:
    """Random and rule-bot seats at 5 and 8 seats in every mode (R-3 knowledge, the Marshal's
    pair, Three Eyes and Instinct put-backs, eliminations that change distances)."""
    root = tmp_path_factory.mktemp("payload")
    config = parse_config(
        {
            "name": "modes",
            "players": [{"name": "bot", "kind": "bot"}, {"name": "rnd", "kind": "random"}],
            "tables": [
                {"seats": [5, 8], "modes": ["classic", "partners", "double_agent", "old_classic"]}
            ],
            "games_per_table": 2,
            "paired": False,
            "output": str(root),
        }
    )
    asyncio.run(LeagueRunner(config, root / "modes", workers=1).run())
    return RunStore(root / "modes")


def test_fast_payload_equals_rebuilding_every_view_and_label(store: RunStore) -> None:
    games = store.games()
    assert len(games) == 16
    for g in games:
        start, decisions, end = store.read_game(g.game_id)
        fast = game_payload(start, decisions, end, {})
        assert fast == game_payload(start, decisions, end, {}, exact=True), g.game_id
        assert fast["warn"] is None and not fast["models"]


def test_game_list_is_compact_and_in_natural_order(store: RunStore) -> None:
    assert sorted(["g10", "g9", "g100", "a2b10", "a2b9"], key=natural_key) == [
        "a2b9", "a2b10", "g9", "g10", "g100"
    ]  # fmt: skip
    games = sorted_games(store.games())
    ids = [g.game_id for g in games]
    assert ids == sorted(ids, key=natural_key)
    data = game_list(games, {g.game_id: game_file_name(g.game_id) for g in games})
    assert [r[0] for r in data["rows"]] == ids
    assert set(data["players"]) == {"bot", "rnd"}
    for row, g in zip(data["rows"], games, strict=True):
        assert (row[1], data["modes"][row[2]], data["sides"][row[3]]) == (
            g.seats, g.mode, g.winning_side
        )  # fmt: skip
        lineup = row[9]
        assert len(lineup) == 3 * g.seats
        won = [bool(lineup[i + 2]) for i in range(0, len(lineup), 3)]
        assert won == [o.won for o in sorted(g.seat_outcomes, key=lambda o: o.seat)]


def test_interval_chart_axis_covers_values_intervals_and_zero() -> None:
    rows = [
        Interval("a", 12.0, 3.0, 20.0, "", ""),
        Interval("b", -4.0, -9.5, 1.0, "", ""),
        Interval("c", 2.0, math.nan, math.nan, "", ""),
    ]
    c = interval_chart(rows, bars=True, unit=" pp")
    xs = [t["x"] for t in c["ticks"]]
    left, right = c["label_w"], c["label_w"] + c["plot_w"]
    assert xs[0] == left and xs[-1] == right
    for r in c["rows"]:
        for x in (r["x"], r["xlo"], r["xhi"]):
            assert x is None or left <= x <= right
    assert c["rows"][2]["xlo"] is None and c["rows"][2]["bar"] is not None
    assert left < c["zero"] < right and c["rows"][1]["bar"]["x"] < c["zero"]
    assert nice_ticks(-9.5, 20.0) == [-10, 0, 10, 20]
    assert nice_ticks(0.0, 1.0) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]


def test_interval_chart_draws_everything_inside_what_is_possible() -> None:
    """A rate's bar and whiskers stay on a 0–100 % axis (a luck-adjusted −0.8 % at 0, a bound
    of 130 % at 100 %); a score's axis never passes ±100 pp."""
    rows = [
        Interval("a", -0.8, -9.0, 20.0, "", ""),
        Interval("b", 50.0, 10.0, 130.0, "", ""),
    ]
    c = interval_chart(rows, bars=True, unit=" %", limits=(0.0, 100.0), fixed=True)
    left, right = c["label_w"], c["label_w"] + c["plot_w"]
    assert [t["text"] for t in c["ticks"]] == ["0", "20", "40", "60", "80", "100 %"]
    a, b = c["rows"]
    assert a["x"] == left and a["xlo"] == left and a["bar"]["w"] <= 0.5
    assert b["xhi"] == right and b["bar"]["x"] == left
    scores = interval_chart(
        [Interval("x", 95.0, 60.0, 140.0, "", "")], bars=True, limits=(-100.0, 100.0)
    )
    assert scores["ticks"][-1]["text"] == "100" and scores["rows"][0]["xhi"] == right


def test_the_front_ranks_players_by_score_and_roles_by_rate() -> None:
    from harness.report.front import RoleRate, Score, role_panels, score_chart

    chart = score_chart(
        [Score("alpha", -0.1, -0.2, 0.0, 10), Score("zeta", 0.3, 0.1, 0.5, 10),
         Score("none", None, None, None, 2)],
        {}, "en", frozenset({"zeta"}),
    )  # fmt: skip
    assert [r["label"] for r in chart["rows"]] == ["⚠ zeta", "alpha", "none"]
    assert chart["rows"][0]["text"] == "+30.0 (+10.0 – +50.0) pp"
    panels = role_panels(
        [RoleRate("a", "raider", 4, 1, 0.25, 0.05, 0.7), RoleRate("b", "raider", 2, 2, 1.0, 0.3, 1.0),
         RoleRate("a", "marshal", 3, 0, 0.0, 0.0, 0.56)],
        {}, "en", frozenset(),
    )  # fmt: skip
    assert [p["role"] for p in panels] == ["marshal", "raider"]  # the game's role order
    assert [r["label"] for r in panels[1]["chart"]["rows"]] == ["b", "a"]
    empty = panels[0]["chart"]["rows"][0]  # 0 % with an interval to 56 %: an empty bar
    assert empty["text"] == "0.0 % (0.0 % – 56.0 %) · 0/3" and empty["bar"]["w"] <= 0.5


def test_the_payload_names_card_faces_characters_and_the_seats_accuracy(store: RunStore) -> None:
    """The viewer draws cards and portraits with the web table's art: the states hold card
    faces, each named in the game's card table, and every player its character id."""
    from harness.views.names import card_label

    g = store.games()[0]
    start, decisions, end = store.read_game(g.game_id)
    p = game_payload(start, decisions, end, {})
    faces: set[str] = set()
    for step in p["steps"]:
        for key, value in step["x"].items():
            if key[0] == "h":
                faces.update(value)
            elif key[0] == "s":
                faces.update(value[3])
                faces.update([value[4]] if value[4] else [])
            elif key == "t" and value[6]:
                faces.add(value[6])
    assert faces and faces <= set(p["cards"])
    assert all(p["cards"][f][0] == card_label(f) and p["cards"][f][1] for f in faces)
    assert all(pl["cid"] and pl["char"] for pl in p["players"])
    assert "acc" not in p  # no move analysis: no accuracy header
