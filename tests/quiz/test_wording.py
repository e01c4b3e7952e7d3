"""The quiz's wording leaves nothing to guess: a question asked when it is not the asked seat's
turn says so, a play-phase question says in words whether a Shot was already played this turn,
and the role of an eliminated player takes the article its count at the table asks for."""

from __future__ import annotations

from collections import Counter

from harness.quiz.kinds import KIND_BY_NAME
from harness.quiz.question_wording import question_text
from harness.quiz.quiz_records import Dataset
from harness.quiz.worlds import load

NOT_YOUR_TURN = {
    "en": "It is not your turn. If it were your turn",
    "ru": "Сейчас не твой ход. Если бы сейчас, при таком же столе, был твой ход",
    "zh": "现在不是你的回合。如果现在是你的回合",
    "ja": "今はあなたのターンではない。もし卓が今のままであなたのターンだったとして",
    "ar": "ليس الدور دورك الآن. لو كان الدور دورك",
}
SHOT = {  # (already played a Shot, not yet)
    "en": ("you have already played a Shot this turn", "you have not played a Shot yet this turn"),
    "ru": ("Выстрел в этот ход ты уже сыграл", "Выстрел в этот ход ты ещё не играл"),
    "zh": ("本回合你已经打出过一张射击", "本回合你还没有打出过射击"),
    "ja": ("発砲をすでに1回プレイした", "発砲をまだプレイしていない"),
    "ar": ("قد لعبت طلقة في هذا الدور", "لم تلعب طلقة في هذا الدور بعد"),
}


def _question(text: str) -> str:
    """The question's own sentence(s), after the table."""
    return text.rsplit("\n\n**", 2)[-2]


def test_reach_questions_say_when_it_is_not_your_turn(shipped: dict[str, Dataset]) -> None:
    seen = Counter()
    for locale, ds in shipped.items():
        for q in ds.questions:
            if q.kind != "reach":
                continue
            mine = q.position["turn"] == q.seat
            seen[mine] += 1
            assert (NOT_YOUR_TURN[locale] in _question(q.text)) is not mine, (locale, q.id)
    assert seen[True] and seen[False]  # the shipped quiz asks both


def test_play_phase_legal_questions_state_whether_a_shot_was_played(
    shipped: dict[str, Dataset],
) -> None:
    seen = Counter()
    for locale, ds in shipped.items():
        for q in ds.questions:
            if q.kind != "legal" or q.params["decision"] != "play":
                continue
            used = q.position.get("shots_used", 0) > 0
            seen[used] += 1
            said = _question(q.text)
            assert SHOT[locale][0 if used else 1] in said, (locale, q.id)
            assert SHOT[locale][1 if used else 0] not in said, (locale, q.id)
    assert seen[False]
    # the shipped positions have no used Shot at a legal question: word one with the Shot used
    for locale, ds in shipped.items():
        q = next(q for q in ds.questions if q.kind == "legal" and q.params["decision"] == "play")
        game = load({**q.position, "shots_used": 1})
        text, _ = question_text(
            KIND_BY_NAME["legal"], game, q.seat, q.params, q.candidate_ids, q.names, locale
        )
        assert SHOT[locale][0] in _question(text) and SHOT[locale][1] not in text, locale


def test_the_article_of_a_revealed_role_follows_its_count(shipped: dict[str, Dataset]) -> None:
    """ "revealed as the Marshal" (one at the table), "revealed as a Raider" (two or three)."""
    seen = Counter()
    for q in shipped["en"].questions:
        if q.kind != "glory":
            continue
        role = q.params["role"]
        count = Counter(s["role"] for s in q.position["seats"])[role]
        name = role.replace("_", " ").title()
        article = "the" if count == 1 else "a"
        seen[article] += 1
        assert f"is revealed as {article} {name}." in q.text, q.id
    assert seen["the"] and seen["a"]
