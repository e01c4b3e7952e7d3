"""The web table speaks the seed pages' five languages: the page's own words (static/i18n.js) in
every locale with exactly the English keys, and the server's game text (cards, seat names, modes,
the feed, the game-over headline) in the language of each connection.  Seat names of bots and
model seats are "Bot N" / "AI N" in the glossary's words (RULES.md §11)."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from harness.views.names import LOCALES, card_name, glossary, mode_name, word
from harness.web import protocol
from harness.web.app import STATIC_DIR

from .server import Client, LiveServer, drive

I18N_JS = STATIC_DIR / "i18n.js"
# Words that may be the same in English and in a translation (a brand, "AI", a direction, a comma).
SAME_AS_ENGLISH = {"title", "model", "dir", "list_sep"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def page_words() -> dict[str, dict[str, str]]:
    """The I18N object of i18n.js: plain JSON after ``const I18N =``."""
    text = I18N_JS.read_text(encoding="utf-8")
    body = text.split("const I18N =", 1)[1].strip()
    assert body.endswith(";")
    words: dict[str, dict[str, str]] = json.loads(body[:-1])
    return words


def used_keys() -> set[str]:
    """Every word key the page asks for: data-t / data-title in index.html, t("…") / tf("…") and
    "speed_…" / "claim_…" in the page's scripts (every static .js but the words themselves)."""
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    scripts = sorted(p for p in STATIC_DIR.glob("*.js") if p != I18N_JS)
    assert len(scripts) > 2, scripts
    js = "\n".join(p.read_text(encoding="utf-8") for p in scripts)
    keys = set(re.findall(r'data-(?:t|title)="(\w+)"', html))
    keys |= set(re.findall(r'\btf?\("(\w+)"[,)]', js))
    keys |= {f"speed_{s}" for s in protocol.SPEEDS} | {
        f"claim_{r}" for r in ("deputy", "raider", "loner")
    }
    return keys


def test_every_page_locale_has_exactly_the_english_words() -> None:
    words = page_words()
    assert tuple(words) == protocol.PAGE_LOCALES == LOCALES
    en = words["en"]
    assert used_keys() <= set(en), used_keys() - set(en)
    for locale, table in words.items():
        assert list(table) == list(en), f"{locale}: {set(table) ^ set(en)}"
        for key, text in table.items():
            assert isinstance(text, str) and text.strip(), (locale, key)
            # the same blanks to fill in ("Round {n}", "I think {name} is…")
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), (
                locale,
                key,
            )
        if locale != "en":
            untranslated = {k for k in en if table[k] == en[k]} - SAME_AS_ENGLISH
            assert not untranslated, f"{locale} keeps English words: {sorted(untranslated)}"


@pytest.mark.parametrize("locale", LOCALES)
def test_page_words_agree_with_the_glossary(locale: str) -> None:
    table = page_words()[locale]
    g = glossary(locale)
    assert table["dir"] == g.direction and table["language"] == g.language
    for role in ("deputy", "raider", "loner"):  # the claim and mark buttons (RULES.md §10)
        assert table[f"claim_{role}"] == g.roles[role]


def frames_of(client: Client, kind: str) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] == kind]


def assert_game_text_in(view: dict[str, Any], locale: str) -> None:
    ctx = view["ctx"]
    assert ctx["locale"] == locale and ctx["table"]["mode_name"] == mode_name("classic", locale)
    assert ctx["hand"], "a seated person has cards"
    for c in ctx["hand"]:
        assert c["label"].startswith(card_name(c["card"].partition(".")[0], locale)), c
    bots = [s["name"] for s in ctx["seats"] if not s["you"]]
    assert bots == [f"{word('bot', locale)} {i}" for i in range(2, 5)]


def test_the_server_speaks_each_locale_to_its_connection(tmp_path: Path) -> None:
    with LiveServer(tmp_path, seed=lambda: 2024) as srv:  # one deal: a game of known length
        with urllib.request.urlopen(f"{srv.url}/api/meta", timeout=10) as r:
            meta = json.load(r)
        assert meta["locales"] == list(LOCALES)
        assert all(set(m["name"]) == set(LOCALES) for m in meta["modes"])

        clients = {}
        for locale in ("zh", "ja", "ar"):
            c = Client(srv.ws_url)
            c.send(type="create", name="Ann", settings={"seats": 4}, locale=locale, play=True)
            clients[locale] = c
        for locale, c in clients.items():
            assert_game_text_in(c.wait_type("view"), locale)

        # Changing the language mid-game resends the whole view in the new one.
        ja = clients["ja"]
        ja.send(type="locale", locale="ar")
        assert_game_text_in(
            ja.wait(lambda f: f["type"] == "view" and f["ctx"]["locale"] == "ar"), "ar"
        )

        # The Arabic person plays the game to its end: every frame stays Arabic.
        ar = clients["ar"]
        drive([ar])
        views = frames_of(ar, "view")
        assert {v["ctx"]["locale"] for v in views} == {"ar"}
        feed = [line for v in views for line in v["ctx"]["feed"]]
        assert any(word("bot", "ar") in line for line in feed)
        (over,) = frames_of(ar, "over")
        assert {p["role_name"] for p in over["players"]} <= set(glossary("ar").roles.values())
        assert re.search(r"[\u0600-\u06ff]", over["headline"]), over["headline"]
        for c in clients.values():
            c.close()


def test_an_unknown_locale_is_refused_with_one_line(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as srv:
        c = Client(srv.ws_url)
        c.send(type="create", name="Ann", locale="fr")
        err = c.wait_type("error")
        assert err["code"] == "bad_message" and "locale" in err["message"]
        assert "\n" not in err["message"]
        c.close()
