"""The wording of a quiz question: the asked seat's view of the table (the same Markdown a model
seat gets in a game, with the pending options left out), the question of its kind and the
labelled candidates — all from the jinja2 templates in ``prompts/quiz`` — and the system prompt
of a quiz run (the rules document and how to answer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from harness.engine import Game, SeatView, build_view, parse_action
from harness.views.names import card_label, card_name, role_name, upgrade_name
from harness.views.option_labels import option_label
from harness.views.render import environment, markdown_from_context
from harness.views.render_context import view_context

from .kinds import QuestionKind

ACTION_KINDS = frozenset({"legal"})
ATTACKS = frozenset({"shot", "ricochet", "duel", "raid", "buckshot"})  # options others answer


@lru_cache(maxsize=4)
def _labels(locale: str) -> Any:
    return environment().get_template(f"quiz/labels.{locale}.j2").make_module()


def view_markdown(game: Game, seat: int, names: Sequence[str], locale: str) -> str:
    """The table as ``seat`` sees it (RULES.md §9), without the options of a pending decision."""
    ctx = view_context(build_view(game, seat), names, locale, feed=False)
    if ctx["decision"] is not None:
        ctx["decision"] = {**ctx["decision"], "options": []}
    return markdown_from_context(ctx, abilities=False, effects=False).strip()


def words(
    view: SeatView, params: Mapping[str, Any], names: Sequence[str], locale: str
) -> dict[str, Any]:
    """What the question's wording needs: names, card and role labels of ``params``, as the asked
    seat's ``view`` shows them."""
    p: dict[str, Any] = {
        "you": names[view.viewer],
        "blocked": params.get("blocked"),
        "your_turn": view.turn == view.viewer,
        "shot_used": view.shots_used > 0,
        "decision": params.get("decision"),
    }
    if "option" in params:
        a = parse_action(params["option"])
        p["option"] = a.id
        p["option_label"] = option_label(a, "play", view, names, locale)
        p["attack"] = a.verb == "play" and a.arg in ATTACKS
    for key in ("target", "victim", "holder"):
        if key in params:
            p[key] = names[int(params[key])]
    if "card" in params:
        p["card"] = card_name(params["card"], locale)
        p["card_id"] = params["card"]
    if "revealed" in params:
        p["faces"] = [card_label(f, locale) for f in params["revealed"]]
    if "placed" in params:
        p["placed"] = bool(params["placed"])
    if "role" in params:
        p["role"] = role_name(params["role"], locale)
        p["role_count"] = view.composition.get(params["role"], 0)  # "the" or "a" Raider
    if "upgrade" in params:
        p["upgrade"] = upgrade_name(params["upgrade"], locale)
        p["upgrade_id"] = params["upgrade"]
    if "round" in params:
        p["round"] = params["round"]
    return p


def question_text(
    kind: QuestionKind,
    game: Game,
    seat: int,
    params: Mapping[str, Any],
    candidates: Sequence[str],
    names: Sequence[str],
    locale: str,
) -> tuple[str, list[str]]:
    """The question's full text and its candidates' labels (an action kind's candidates are
    labelled as the game's options are)."""
    m = _labels(locale)
    view = build_view(game, seat)
    p = words(view, params, names, locale)
    if kind.name in ACTION_KINDS:
        decision = str(params["decision"])
        labels = [option_label(parse_action(c), decision, view, names, locale) for c in candidates]
    else:
        labels = [str(m.candidate(kind.name, c, p)).strip() for c in candidates]
    text = (
        environment()
        .get_template(f"quiz/question.{locale}.j2")
        .render(
            view_md=view_markdown(game, seat, names, locale),
            title=str(m.title(kind.name)).strip(),
            question=str(m.question(kind.name, p)).strip(),
            candidates=[
                {"id": c, "label": label} for c, label in zip(candidates, labels, strict=True)
            ],
            shape=kind.shape,
        )
        .strip()
    )
    return text, labels


def system_prompt(rules: str, locale: str) -> str:
    """The system prompt of a quiz run: the rules document, then how to answer."""
    return (
        environment().get_template(f"quiz/system.{locale}.j2").render(rules=rules.strip()).strip()
    )


__all__ = ["question_text", "system_prompt", "view_markdown", "words"]
