"""The HTML report speaks the report's locale (issue 15): every word of ``index.html``, the
charts, the viewer script and the rules-quiz page comes from the label data of
``harness/report/labels`` in en, ru, zh, ja or ar; the Arabic pages are right to left."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness.records import RunStore
from harness.report import build_report
from harness.report.html import viewer_words
from harness.report.labels import (
    LABELS_DIR,
    PLURAL_FORMS,
    LabelError,
    count,
    labels,
    load_labels,
    plural_category,
    plural_table,
)
from harness.views.glossary import LOCALES

from . import build_run

STATIC = Path(__file__).resolve().parents[2] / "harness" / "report" / "static"
# A heading of the summary, the charts and the game list, as a reader of each language sees it.
HEADINGS = {
    "en": ("League summary", "Win rate by player and role", "Games"),
    "ru": ("Сводка лиги", "Доля побед по игрокам и ролям", "Партии"),
    "zh": ("联赛概要", "按玩家和身份的胜率", "对局"),
    "ja": ("リーグの概要", "プレイヤーと役職ごとの勝率", "試合"),
    "ar": ("ملخص الدوري", "نسبة الفوز حسب اللاعب والدور", "المباريات"),
}
_FIELD = re.compile(r"\{\w+\}")


class _Visible(HTMLParser):
    """The text a reader sees: text outside scripts and styles, and the title, placeholder and
    aria-label attributes (tooltips and accessible names)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.attrs: dict[str, dict[str, str]] = {}
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag not in self.attrs:
            self.attrs[tag] = {k: v or "" for k, v in attrs}
        for k, v in attrs:
            if k in ("title", "placeholder", "aria-label") and v:
                self.parts.append(v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible(html: str) -> tuple[str, dict[str, dict[str, str]]]:
    p = _Visible()
    p.feed(html)
    return "\n".join(p.parts), p.attrs


def english_fragments(locale: str) -> set[str]:
    """The English label texts (between placeholders, 6 characters or more) that the label of
    the same key in ``locale`` does not contain: none may be left on that locale's page."""
    en, other = labels("en"), labels(locale)
    pairs: list[tuple[str, str]] = []
    for section in ("page", "charts", "viewer", "quiz", "kinds", "fallback_reasons"):
        mine = getattr(other, section)
        pairs += [(text, mine[key]) for key, text in getattr(en, section).items()]
    for noun, forms in en.counts.items():
        pairs += [(text, " ".join(other.counts[noun].values())) for text in forms.values()]
    out = set()
    for text, translated in pairs:
        for part in _FIELD.split(text):
            part = part.strip(" :;,.()")
            if len(part) >= 6 and part not in translated:
                out.add(part)
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunStore:
    return build_run(
        tmp_path_factory.mktemp("runs"), name="langs", cells=((4, "classic"),), games_per_cell=2
    )


def test_every_language_has_every_label_and_no_other() -> None:
    """One label file per locale with exactly the English keys and placeholders (a missing or
    invented key fails loading with one line naming it); counted nouns have the forms of the
    locale's plural rule."""
    english = labels("en")
    assert sorted(p.stem for p in LABELS_DIR.glob("*.yaml")) == sorted(LOCALES)
    for locale in LOCALES:
        got = labels(locale)
        assert got.locale == locale
        assert got.keys() == english.keys(), locale
        for noun, forms in got.counts.items():
            assert sorted(forms) == sorted(PLURAL_FORMS[locale]), (locale, noun)


def test_a_label_file_missing_or_inventing_a_key_is_one_line(tmp_path: Path) -> None:
    text = (LABELS_DIR / "ru.yaml").read_text(encoding="utf-8")
    english = load_labels(LABELS_DIR / "en.yaml")
    missing = tmp_path / "ru.yaml"
    missing.write_text(text.replace("  nav_charts: Графики\n", ""), encoding="utf-8")
    with pytest.raises(LabelError, match=r"^labels ru\.yaml: page: missing nav_charts$"):
        load_labels(missing, english)
    extra = tmp_path / "ru.yaml"
    extra.write_text(text.replace("  nav_charts:", "  nav_chart: x\n  nav_charts:"), "utf-8")
    with pytest.raises(LabelError, match=r"unknown nav_chart"):
        load_labels(extra, english)
    lost = tmp_path / "ru.yaml"
    lost.write_text(text.replace('"Шаг {i} из {n}"', '"Шаг {i}"'), encoding="utf-8")
    with pytest.raises(LabelError, match=r"viewer\.step_of: placeholders"):
        load_labels(lost, english)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("ru", {1: "1 партия", 2: "2 партии", 5: "5 партий", 11: "11 партий", 21: "21 партия",
                22: "22 партии", 112: "112 партий", 101: "101 партия"}),
        ("ar", {0: "0 مباراة", 1: "مباراة واحدة", 2: "مباراتان", 3: "3 مباريات",
                11: "11 مباراة", 100: "100 مباراة", 103: "103 مباريات"}),
        ("en", {1: "1 game", 2: "2 games", 21: "21 games"}),
        ("zh", {1: "1 局", 5: "5 局"}),
    ],
)  # fmt: skip
def test_counted_nouns_take_the_plural_form_of_the_number(
    locale: str, expected: dict[int, str]
) -> None:
    """Russian and Arabic numbers (issue 15 point 4) by the rule of prompts/plural.j2."""
    words = labels(locale)
    assert {n: count(n, "games", words) for n in expected} == expected


def test_the_page_plural_table_gives_every_number_its_category() -> None:
    """report.js counts with a table of 0 … 199 (``n < 200 ? t[n] : t[100 + n % 100]``)."""
    for locale in LOCALES:
        table = plural_table(locale)
        for n in range(0, 2500, 7):
            assert table[n if n < 200 else 100 + n % 100] == plural_category(n, locale), (locale, n)


def test_the_viewer_script_reads_only_words_the_page_gives_it() -> None:
    """Every ``UI.<key>`` of the viewer's scripts (report.js, board.js, graph.js) is in the
    page's "ui-strings" JSON, in every locale, and every counted noun it asks for exists."""
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js")))
    assert "BOARD.draw" in script and "GRAPH.draw" in script
    used = set(re.findall(r"\bUI\.(\w+)", script))
    nouns = set(re.findall(r'\bcount\([^,()]+(?:\([^()]*\))?, "(\w+)"\)', script))
    assert {"step_of", "side_won", "seats"} - used == {"seats"} and nouns >= {"seats", "rounds"}
    for locale in LOCALES:
        words = viewer_words(locale)
        assert used <= set(words), (locale, used - set(words))
        assert nouns <= set(words["counts"])


@pytest.mark.parametrize("locale", LOCALES)
def test_the_report_page_speaks_its_locale(run: RunStore, tmp_path: Path, locale: str) -> None:
    result = build_report(run.root, tmp_path / locale, locale=locale, workers=1)
    html = result.index.read_text(encoding="utf-8")
    text, attrs = visible(html)
    assert attrs["html"]["lang"] == locale
    assert attrs["html"]["dir"] == ("rtl" if locale == "ar" else "ltr")
    for heading in HEADINGS[locale]:
        assert f">{heading}<" in html, heading
    ui = json.loads(re.search(r'id="ui-strings">(.*?)</script>', html, re.S).group(1))
    assert ui["step_of"] == labels(locale).viewer["step_of"]
    assert ui["roles"]["marshal"] == {"en": "Marshal", "ru": "Маршал", "ar": "المارشال"}.get(
        locale, ui["roles"]["marshal"]
    )
    # The scripted model falls back often: the run checks flag it, worded in the locale.
    assert 'class="flag"' in html and f"<strong>{labels(locale).page['run_checks']}:" in html
    if locale == "en":
        return
    # No English label text is left on the page (player names and model ids put aside).
    for name in {o.player for g in run.games() for o in g.seat_outcomes} | {"openai/fake-1"}:
        text = text.replace(name, " ")
    left = sorted(f for f in english_fragments(locale) if f in text)
    assert left == [], left


@pytest.mark.parametrize("locale", LOCALES)
def test_the_quiz_page_speaks_its_locale(locale: str) -> None:
    from harness.quiz.dataset import read_dataset
    from harness.quiz.quiz_summary import summarize
    from harness.quiz.run import QuizAnswer
    from harness.report.quiz_page import render_quiz_page

    dataset = read_dataset(Path(__file__).resolve().parents[2] / "quizzes" / "core.en.jsonl")
    q = dataset.questions[0]
    answer = QuizAnswer(
        run="tiny", dataset=dataset.label, dataset_sha256="x", question_id=q.id, kind=q.kind,
        mode=q.mode, seats=q.seats, answer_shape=q.answer_shape, player="p", model="openai:m",
        rules="rules.en.md", rules_sha256="0" * 64, expected=q.answer, given=None, exact=False,
        f1=0.0, fallback="timeout", record={},
    )  # fmt: skip
    html = render_quiz_page(summarize("tiny", dataset, [answer]), dataset, [answer], locale)
    text, attrs = visible(html)
    words = labels(locale)
    assert attrs["html"]["lang"] == locale
    assert attrs["html"]["dir"] == ("rtl" if locale == "ar" else "ltr")
    for key in ("summary", "accuracy_kind", "accuracy_mode", "questions"):
        assert f">{words.quiz[key]}<" in html, key
    assert words.fallback_reasons["timeout"] in text
    if locale != "en":  # the question and its candidates are the (English) dataset's text
        for piece in [q.text, *(c.label for c in q.candidates)]:
            text = text.replace(piece.strip(), " ")
        left = sorted(f for f in english_fragments(locale) if f in text)
        assert left == [], left
