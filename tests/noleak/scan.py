"""Find card identities and hidden roles in anything a seat is given, and report those the seat's
account (:mod:`tests.noleak.account`) does not hold.

:func:`find_leaks` takes any value — a ``SeatView``, a dict (a view's JSON render, an event), JSON
text, Markdown or prompt text, or a list of chat messages — and returns one human-readable line
per leak, naming the field path or the text line that carried it.

**Cards.**  A card identity is a face (``shot.QH``, also inside option ids such as
``putback:shot.QH``) or a label from :func:`harness.views.names.card_label` in any locale
(``Shot ♥Q``, ``Выстрел ♥Q``).  Labels are found from their suit symbol and rank, then matched
against the card names just before them.  Every identity found must be in
``account.cards(seat, upto)``.  In a ``SeatView``, ``known_deck_top`` must be the account's model
of the deck top, ``looking`` the account's look, and a pending decision's options are only for the
seat deciding.

**Roles in structures.**  A dict that names a seat (``seat``/``viewer``) and a ``role`` claims that
role for that seat; a dict whose keys are all seat numbers and whose values are roles (a view's
``known_roles``, an intel event's ``team``) claims each; ``marshal_pair``/``deputy_or_agent`` (and a
``{"kind": "marshal_pair", "seats": ...}`` item) claim the Marshal's pair.  A role claim is allowed
when the seat knows that exact role, or the team it belongs to (the winning side at game over); a
pair claim when the seat was told that pair.

**Roles in text.**  Text is read line by line.  A role word (in any of the five languages, from
the glossaries, in any case and the forms the language writes: ``Raider``, ``Raiders``,
``Налётчика``, ``double_agent``, ``劫匪们``, ``保安官補``, ``والعميل المزدوج``, ... — see
:mod:`tests.noleak.role_words`) on a line that names a seat is a claim about one of the seats
named on that line; it is allowed when at least one named seat's role (or team) is known to be
that role — "☠ Bill is eliminated by Ada — was Raider." is allowed by
Bill's revealed role even though Ada's is hidden — or, for Deputy and Double Agent, when both of
the Marshal's pair are named and the seat was told the pair.  The Marshal is public, so "Marshal"
is never a leak.  Role words on lines naming no seat make no claim about anyone (the rules, the
composition line, goals), and so do role words followed by a count (the composition
"Raider 2").  Known general texts are removed before reading: the rules document, every role's goal
(``prompts/roles.<locale>.j2``), the mode names ("Double Agent (beta)") and feed reasons that
contain a role word ("reward for a Raider").  The approach cannot see a leak on a line that also
names a seat whose known role is the leaked word, nor a role claimed about a seat that is referred
to without its name; a leak of that shape needs the structural check (views, JSON) or the
counterfactual test (``test_counterfactual.py``) to be caught.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from harness.engine import Game, SeatView
from harness.engine.cards import CARD_FACE, SUIT_SYMBOL, TYPE_BY_ID
from harness.engine.roles import MODES, ROLES
from harness.views.names import LOCALES, card_name, default_names, glossary, mode_name

from .account import SPECTATOR, Account
from .event_visibility import audience_of, rule_for
from .role_words import role_patterns, role_word_starts

TEAM_ROLES = {
    "law": frozenset({"marshal", "deputy"}),
    "raiders": frozenset({"raider", "double_agent"}),
    "loners": frozenset({"loner"}),
}
PAIR_ROLES = frozenset({"deputy", "double_agent"})
PAIR_KEYS = ("marshal_pair", "deputy_or_agent")

_RANK = r"(10|[2-9JQKA])"
FACE_RE = re.compile(
    r"(?<![\w])("
    + "|".join(sorted(TYPE_BY_ID, key=len, reverse=True))
    + r")\.(10|[2-9JQKA])([SHDC])(?!\w)"
)
_SUIT_RANK_RE = re.compile("([" + "".join(SUIT_SYMBOL.values()) + "])" + _RANK + r"(?!\w)")
_SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}
_ROLE_PATTERNS = role_patterns()
ROLE_RE = re.compile(
    f"(?={role_word_starts()})(?:"
    + "|".join(f"(?P<r{i}>{p})" for i, (_, p) in enumerate(_ROLE_PATTERNS))
    + ")"
    r"(?P<count>\s+\d)?",
    re.IGNORECASE,
)
# A seat's name ends where a letter of its own kind cannot continue it: Chinese and Japanese
# write names right against their words ("Ada是劫匪"), Arabic attaches prefixes to them.
_NOT_IN_NAME = r"[^\W\u0600-\u06ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_FACES = frozenset(CARD_FACE)


@lru_cache(maxsize=1)
def _card_names() -> tuple[tuple[str, str], ...]:
    """(localized card name, type id), longest first."""
    out = {(card_name(t, loc), t) for t in TYPE_BY_ID for loc in LOCALES}
    return tuple(sorted(out, key=lambda p: -len(p[0])))


@lru_cache(maxsize=1)
def general_texts() -> tuple[str, ...]:
    """Texts that mention roles without saying anything about a seat, longest first."""
    from harness.views.prompts import rules_text
    from harness.views.render import environment

    texts: set[str] = set()
    for loc in LOCALES:
        texts.add(rules_text(loc))
        texts.add(rules_text(loc, "brief"))  # a model's `rules: brief`
        goals = environment().get_template(f"roles.{loc}.j2").module
        for role in ROLES:
            for mode in MODES:
                texts.add(str(goals.goal(role, mode)).strip())  # type: ignore[attr-defined]
        for mode in MODES:
            texts.add(mode_name(mode, loc))
        texts.update(glossary(loc).reasons.values())
    return tuple(sorted((t for t in texts if ROLE_RE.search(t)), key=len, reverse=True))


def card_identities(text: str) -> list[tuple[str, str]]:
    """Every (face, as written) in ``text``: faces and localized labels."""
    found = [(m.group(0), m.group(0)) for m in FACE_RE.finditer(text)]
    for m in _SUIT_RANK_RE.finditer(text):
        start = m.start()
        for name, type_id in _card_names():
            head = start - len(name) - 1
            if (
                head >= 0
                and text[head:start] == name + " "
                and (head == 0 or not text[head - 1].isalnum())
            ):
                face = f"{type_id}.{m.group(2)}{_SYMBOL_SUIT[m.group(1)]}"
                if face in _FACES:
                    found.append((face, text[head : m.end()]))
                break
    return found


def _role_of_match(m: re.Match[str]) -> str:
    return next(r for i, (r, _) in enumerate(_ROLE_PATTERNS) if m.group(f"r{i}") is not None)


class _Scanner:
    def __init__(
        self,
        seat: int,
        upto: int,
        account: Account,
        game: Game,
        names: Sequence[str] | None,
        said: Mapping[int, set[str]] | None = None,
        aliases: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        self.seat = seat
        self.said = said or {}
        self.game = game
        self.upto = upto
        self.account = account
        self.cards = account.cards(seat, upto)
        self.roles = account.roles(seat, upto)
        self.teams = account.teams(seat, upto)
        self.pair = account.pair(seat, upto)
        self.names = list(names) if names is not None else default_names(game.n)
        self.seat_of = {n: i for i, n in enumerate(self.names)}
        for i, other in (aliases or {}).items():  # the seat's names in other languages
            self.seat_of.update({n: i for n in other if n not in self.seat_of})
        self.name_re = re.compile(
            f"(?<!{_NOT_IN_NAME})("
            + "|".join(re.escape(n) for n in sorted(self.seat_of, key=len, reverse=True))
            + f")(?!{_NOT_IN_NAME})"
        )
        self.leaks: list[str] = []

    # ---------------------------------------------------------------- helpers
    def who(self) -> str:
        return "the spectator" if self.seat == SPECTATOR else f"seat {self.seat}"

    def role_allowed(self, j: int, role: str) -> bool:
        if self.roles.get(j) == role or role in self.said.get(j, ()):
            return True
        team = self.teams.get(j)
        return team is not None and role in TEAM_ROLES[team]

    def card(self, face: str, where: str, shown: str | None = None) -> None:
        if face not in self.cards:
            written = f" ({shown!r})" if shown and shown != face else ""
            self.leaks.append(
                f"{where}: card {face}{written} — {self.who()} has not seen it in the first "
                f"{self.upto} events"
            )

    def claim(self, j: int, role: str, where: str) -> None:
        if not self.role_allowed(j, role):
            self.leaks.append(
                f"{where}: says seat {j} ({self.names[j]}) is {role} — {self.who()} does not "
                f"know that role"
            )

    def pair_claim(self, seats: Any, where: str) -> None:
        claimed = frozenset(int(s) for s in seats)
        if self.pair != claimed:
            self.leaks.append(
                f"{where}: the Marshal's pair {sorted(claimed)} — {self.who()} was not told it"
            )

    # ---------------------------------------------------------------- values
    def value(self, obj: Any, where: str) -> None:
        if isinstance(obj, SeatView):
            self.view(obj, where or "view")
        elif isinstance(obj, str):
            self.string(obj, where)
        elif isinstance(obj, Mapping):
            self.mapping(obj, where)
        elif isinstance(obj, list | tuple | set | frozenset):
            for i, item in enumerate(obj):
                self.value(item, f"{where}[{i}]")
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            self.mapping(dataclasses.asdict(obj), where)

    def string(self, text: str, where: str) -> None:
        stripped = text.lstrip()
        if stripped[:1] in ("{", "[") and len(stripped) > 1:
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict | list):
                self.value(parsed, f"{where}<json>")
                return
        self.text(text, where)

    def mapping(self, d: Mapping[Any, Any], where: str) -> None:
        if isinstance(d.get("role"), str) and isinstance(d.get("content"), str):  # chat message
            self.text(d["content"], f"{where}.content")
            return
        prefix = f"{where}." if where else ""
        seat = d.get("seat", d.get("viewer"))
        role = d.get("role")
        if isinstance(seat, int) and 0 <= seat < len(self.names) and role in ROLES:
            self.claim(seat, role, f"{prefix}role")
        if d and all(_is_seat_key(k) for k in d) and all(v in ROLES for v in d.values()):
            for k, v in d.items():
                self.claim(int(k), v, f"{prefix}{k}")
            return
        for key in PAIR_KEYS:
            if isinstance(d.get(key), list | tuple) and d[key]:
                self.pair_claim(d[key], f"{prefix}{key}")
        if d.get("kind") == "marshal_pair" and isinstance(d.get("seats"), list | tuple):
            self.pair_claim(d["seats"], f"{prefix}seats")
        for k, v in d.items():
            self.value(v, f"{prefix}{k}")

    def view(self, view: SeatView, where: str) -> None:
        if view.viewer != self.seat:
            self.leaks.append(f"{where}.viewer: a view of seat {view.viewer}, not {self.seat}")
        if self.seat != SPECTATOR and self.roles.get(self.seat) != view.role:
            self.leaks.append(f"{where}.role: {view.role!r} is not the seat's own role")
        known_top = self.account.deck_top(self.seat, self.upto)
        if view.known_deck_top[: len(known_top)] != known_top[: len(view.known_deck_top)] or len(
            view.known_deck_top
        ) > len(known_top):
            self.leaks.append(
                f"{where}.known_deck_top: {list(view.known_deck_top)} — the cards this seat put "
                f"back on top are {list(known_top)}"
            )
        looking = self.account.looking(self.seat, self.upto)
        extra = [f for f in view.looking if f not in looking]
        if extra:
            self.leaks.append(f"{where}.looking: {extra} — the seat is looking at {list(looking)}")
        pv = view.pending
        if pv is not None and pv.options is not None and pv.seat != self.seat:
            self.leaks.append(f"{where}.pending.options: seat {pv.seat}'s options {pv.options}")
        first = view.event_count - len(view.events)
        for k, e in enumerate(view.events):
            here = f"{where}.events[{k}] (game event {first + k}, {e.get('t')!r})"
            self.event_fields(e, first + k, here)
            self.mapping(e, here)
        d = {f.name: getattr(view, f.name) for f in dataclasses.fields(view) if f.name != "events"}
        self.mapping(d, where)

    def event_fields(self, shown: Mapping[str, Any], index: int, where: str) -> None:
        """Every field of a filtered event must be one the table gives this seat."""
        raw = self.game.events[index] if 0 <= index < len(self.game.events) else None
        if raw is None or raw.get("t") != shown.get("t"):
            self.leaks.append(f"{where}: not game event {index} as logged")
            return
        full = {k: v for k, v in raw.items() if k not in ("to", "secret")}
        full.update(raw.get("secret", {}))
        rule = rule_for(raw["t"])
        for key in shown:
            if key == "t":
                continue
            f = rule.fields.get(key)
            if f is None:
                self.leaks.append(f"{where}.{key}: a field the event table does not classify")
                continue
            audience = audience_of(f, full, len(self.names))
            if audience is not None and self.seat not in audience:
                self.leaks.append(
                    f"{where}.{key} = {shown[key]!r}: the event table shows this field only to "
                    f"seats {sorted(audience)}"
                )

    # ------------------------------------------------------------------ text
    def text(self, text: str, where: str) -> None:
        roles = ROLE_RE.search(text) is not None
        if roles:  # every general text mentions a role
            for general in general_texts():
                if general in text:
                    text = text.replace(general, " ")
        for face, shown in card_identities(text):
            self.card(face, f"{where} {_line_at(text, text.find(shown))!r}", shown)
        if not roles:
            return
        for line_no, line in enumerate(text.splitlines(), 1):
            mentions = [m for m in ROLE_RE.finditer(line) if not m.group("count")]
            if not mentions:
                continue
            named = {self.seat_of[n] for n in self.name_re.findall(line)}
            if not named:
                continue
            pair_named = self.pair is not None and self.pair <= named
            for m in mentions:
                role = _role_of_match(m)
                if role == "marshal":
                    continue
                if any(self.role_allowed(j, role) for j in named):
                    continue
                if pair_named and role in PAIR_ROLES:
                    continue
                who = ", ".join(f"{self.names[j]} (seat {j})" for j in sorted(named))
                self.leaks.append(
                    f"{where} line {line_no} {line.strip()!r}: {m.group(0).strip()!r} next to "
                    f"{who} — {self.who()} knows none of them to be {role}"
                )


def _is_seat_key(k: Any) -> bool:
    return isinstance(k, int) or (isinstance(k, str) and k.isdigit())


def _line_at(text: str, pos: int) -> str:
    if pos < 0:
        return ""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start : end if end >= 0 else len(text)].strip()
    return line if len(line) <= 160 else line[:157] + "..."


def find_leaks(
    obj: Any,
    seat: int,
    upto_event: int,
    account: Account,
    game: Game,
    *,
    names: Sequence[str] | None = None,
    where: str = "",
    said: Mapping[int, set[str]] | None = None,
    aliases: Mapping[int, Sequence[str]] | None = None,
) -> list[str]:
    """Every card identity and hidden role in ``obj`` that ``seat`` may not know after
    ``upto_event`` events, one line each (see the module docstring).  ``names`` are the seat names
    the text uses (default: :func:`harness.views.names.default_names`).  ``said`` are the roles
    table signals said aloud about each seat by then (a claim about the sender, a mark about its
    target): what a seat chose to say is public, whether or not it is true.  ``aliases`` are other
    names of a seat the text may use (its name in the other languages of a page)."""
    scanner = _Scanner(seat, upto_event, account, game, names, said, aliases)
    scanner.value(obj, where)
    return scanner.leaks


__all__ = ["FACE_RE", "ROLE_RE", "card_identities", "find_leaks", "general_texts"]
