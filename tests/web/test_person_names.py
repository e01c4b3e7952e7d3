"""Names that show as nothing or pass for a bot (issue 35 item 8): Hangul fillers, the blank
Braille pattern and combining marks with no letter are refused, and so are names that only look
like a seat name of a bot or a model seat (another script's letters, a digit for a letter,
accents, punctuation); real names in every script still go."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.web.person_names import NameRefused, name_key, person_name

from .server import Client, LiveServer
from .test_bad_input import expect_error

INVISIBLE = ["\u3164", "\u2800", "\u0301", "\u0301\u0308", "\u20dd", "\ufe0f", "\u115f\u1160",
             "\uffa0", "Ann\u3164", "\u2800Ann", "A \u0301"]  # fmt: skip
LOOKALIKES = ["B\u043et 2", "Bot 2\u3164", "\u0412\u043e\u0442 3", "\u0392\u03bf\u03c4 4",
              "B0t 5", "B\u00f3t 6", "Bot-7", "b.o.t 8", "Al 2", "A\u0406 3",
              "\uff8e\uff9e\uff6f\uff84 5", "\u0411\u043e\u0442 2", "BOT 12"]  # fmt: skip
FINE = ["Ann", "Jos\u00e9", "Zo\u00eb", "\u0110or\u0111e", "\u2764\ufe0f Ann", "\u30db\u30c3\u30c8 2",
        "Botany", "Robot 2", "Bo 2", "Ali 2", "\u0410\u043d\u043d\u0430", "\u674e\u96f7",
        "\u0646\u0648\u0631", "\u0915\u094d\u0937\u093f\u0924\u093f"]  # fmt: skip


@pytest.mark.parametrize("raw", INVISIBLE)
def test_names_that_show_as_nothing_are_refused(raw: str) -> None:
    with pytest.raises(NameRefused) as e:
        person_name(raw)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("raw", LOOKALIKES)
def test_names_that_look_like_a_bots_are_refused(raw: str) -> None:
    with pytest.raises(NameRefused):
        person_name(raw)


@pytest.mark.parametrize("raw", FINE)
def test_real_names_in_every_script_go(raw: str) -> None:
    assert person_name(raw) == raw


def test_the_key_of_a_name_is_how_it_reads() -> None:
    assert name_key("B\u043et-2") == name_key("b\u00f3t 2") == "bot2"
    assert name_key("\u0410nn Lee") == name_key("ann lee")  # a Cyrillic А
    assert name_key("\u30dc\u30c3\u30c8") != name_key("\u30db\u30c3\u30c8")  # ボ is not ホ


def test_the_issues_names_are_refused_over_the_socket(tmp_path: Path) -> None:
    """The reproduction: each name of the report gets ``bad_name`` and no room; a name that
    only looks like a person's at the table becomes "name (2)"."""
    with LiveServer(tmp_path) as srv:
        c = Client(srv.ws_url)
        for name in ("\u3164", "\u2800", "\u0301\u0301", "B\u043et 2", "Bot 2\u3164"):
            c.send(type="create", name=name)
            expect_error(c, "bad_name")
        assert not srv.registry.rooms
        c.send(type="create", name="Ann Lee", settings={"seats": 4})
        code = c.wait_type("joined")["code"]
        other = Client(srv.ws_url)
        other.send(type="join", code=code, name="\u0410nn Lee")
        other.wait_type("joined")
        names = [s.name for s in srv.registry.rooms[code].slots[:2]]
        assert names == ["Ann Lee", "\u0410nn Lee (2)"]
