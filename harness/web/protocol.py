"""The messages a browser may send, as strict pydantic models, and the error frame it gets back.

Every text frame is parsed with :func:`parse_message`; anything that is not exactly one of these
messages (malformed JSON, an unknown ``type``, a missing or extra field, a value out of range, a
frame over :data:`MAX_FRAME_BYTES`, JSON nested deeper than :data:`MAX_JSON_DEPTH`, a refused
name) becomes a :class:`BadMessage` with one readable line, which is sent to that connection only.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from harness.engine.roles import MAX_SEATS, MIN_SEATS

from .person_names import BAD_NAME, NameRefused, person_name

MAX_FRAME_BYTES = 4096
MAX_JSON_DEPTH = 16  # no message nests deeper than 3; the cheap scan below refuses the rest

Mode = Literal["classic", "partners", "double_agent", "old_classic"]
Speed = Literal["slow", "normal", "fast"]
Locale = Literal["en", "ru", "zh", "ja", "ar"]  # harness.views.names.LOCALES
DecisionSeconds = Literal[15, 30, 60, 90]
ClaimRole = Literal["deputy", "raider", "loner"]
Reaction = Literal["like", "funny", "angry", "scared", "deal", "suspect", "gg"]

# the languages of the page's own words (static/i18n.js) and of its game text (the glossaries)
PAGE_LOCALES: tuple[Locale, ...] = get_args(Locale)
SPEEDS: tuple[Speed, ...] = ("slow", "normal", "fast")
DECISION_SECONDS: tuple[int, ...] = (15, 30, 60, 90)
REACTIONS: dict[str, str] = {
    "like": "👍",
    "funny": "😂",
    "angry": "😠",
    "scared": "😱",
    "deal": "🤝",
    "suspect": "🤔",
    "gg": "GG",
}


def _name(raw: str) -> str:
    try:
        return person_name(raw)
    except NameRefused as e:
        raise PydanticCustomError(BAD_NAME, str(e)) from None


Name = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_name)]
Code = Annotated[str, Field(min_length=4, max_length=8, pattern=r"^[A-Za-z0-9]+$")]
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
SeatIndex = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Player = Annotated[str, Field(min_length=1, max_length=64)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)


class TableSettings(_Msg):
    """The start screen's choices (seed 001, "Настройки и комната")."""

    seats: int = Field(default=5, ge=MIN_SEATS, le=MAX_SEATS)
    mode: Mode = "classic"
    decision_seconds: DecisionSeconds = 30
    speed: Speed = "normal"


class Create(_Msg):
    """Create a room and sit in it as its host; ``play`` fills it with bots and starts at once."""

    type: Literal["create"]
    name: Name
    settings: TableSettings = TableSettings()
    locale: Locale = "en"
    play: bool = False


class Join(_Msg):
    """Join a room by code; with the token of a seat, take that seat back (reconnect)."""

    type: Literal["join"]
    code: Code
    name: Name | None = None
    token: Token | None = None
    locale: Locale = "en"


class Watch(_Msg):
    """Watch a room by code, or (without a code) a new match of bots only."""

    type: Literal["watch"]
    code: Code | None = None
    settings: TableSettings = TableSettings()
    locale: Locale = "en"


class SetLocale(_Msg):
    type: Literal["locale"]
    locale: Locale


class Act(_Msg):
    """Choose ``option`` (an option id) for decision number ``decision`` of the game."""

    type: Literal["act"]
    decision: int = Field(ge=1)
    option: str = Field(min_length=1, max_length=64)


class Signal(_Msg):
    """A canned table signal (RULES.md §10): a role claim, a mark on a player, or a reaction."""

    type: Literal["signal"]
    kind: Literal["claim", "mark", "react"]
    role: ClaimRole | None = None
    target: SeatIndex | None = None
    reaction: Reaction | None = None


class FillBots(_Msg):
    type: Literal["fill_bots"]


class SeatBot(_Msg):
    """Host: put a bot (``player`` "bot") or a configured model player in a free seat."""

    type: Literal["seat_bot"]
    seat: SeatIndex
    player: Player = "bot"


class Replace(_Msg):
    """Host: replace whoever sits in ``seat`` by a bot or a configured model player."""

    type: Literal["replace"]
    seat: SeatIndex
    player: Player = "bot"


class Remove(_Msg):
    """Host, before the game: empty a seat."""

    type: Literal["remove"]
    seat: SeatIndex


class Autopilot(_Msg):
    """Host, during the game: hand a person's seat to the bot (``on``) or give it back."""

    type: Literal["autopilot"]
    seat: SeatIndex
    on: bool


class SetSpeed(_Msg):
    type: Literal["speed"]
    speed: Speed


class Start(_Msg):
    """Host: start the game (free seats are filled with bots), or a new one after game over."""

    type: Literal["start"]


class Leave(_Msg):
    type: Literal["leave"]


class Ping(_Msg):
    type: Literal["ping"]


ClientMessage = Annotated[
    Create | Join | Watch | SetLocale | Act | Signal | FillBots | SeatBot | Replace | Remove
    | Autopilot | SetSpeed | Start | Leave | Ping,
    Field(discriminator="type"),
]  # fmt: skip
HOST_MESSAGES = (FillBots, SeatBot, Replace, Remove, Autopilot, SetSpeed, Start)
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A message that cannot be used; ``code`` is a stable word, the text one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_message(text: str | bytes) -> Any:
    """The one client message in ``text``, or :class:`BadMessage`."""
    if isinstance(text, bytes):
        raise BadMessage("bad_frame", "binary frames are not accepted; send JSON text")
    if len(text.encode("utf-8", "replace")) > MAX_FRAME_BYTES:
        raise BadMessage("too_large", f"a message may be at most {MAX_FRAME_BYTES} bytes")
    if _depth(text) > MAX_JSON_DEPTH:
        raise BadMessage("bad_json", f"JSON may nest at most {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_json", "not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("bad_message", "a message is a JSON object with a string 'type'")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(p) for p in err["loc"][1:]) or "message"
        if err["type"] == BAD_NAME:
            raise BadMessage(BAD_NAME, f"{data['type'][:32]}: {loc}: {err['msg']}") from None
        if err["type"] == "union_tag_invalid":
            raise BadMessage(
                "unknown_type", f"unknown message type {data['type'][:32]!r}"
            ) from None
        raise BadMessage("bad_message", f"{data['type'][:32]}: {loc}: {err['msg']}") from None


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _depth(text: str) -> int:
    """How deep the brackets of ``text`` nest, outside JSON strings (an upper bound for broken
    JSON; cheap: messages with few brackets are not scanned)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
