"""Local fake model API servers (real HTTP on 127.0.0.1) for tests without network."""

from .anthropic_server import FakeAnthropicServer
from .openai_server import FakeOpenAIServer
from .script import (
    BAD_BODY_KINDS,
    Answer,
    BadBody,
    ContextOverflow,
    EchoKey,
    Huge,
    Illegal,
    Malformed,
    RecordedRequest,
    Reset,
    Script,
    Stall,
    Status,
    Trickle,
    Truncated,
)

__all__ = [
    "BAD_BODY_KINDS",
    "Answer",
    "BadBody",
    "ContextOverflow",
    "EchoKey",
    "FakeAnthropicServer",
    "FakeOpenAIServer",
    "Huge",
    "Illegal",
    "Malformed",
    "RecordedRequest",
    "Reset",
    "Script",
    "Stall",
    "Status",
    "Trickle",
    "Truncated",
]
