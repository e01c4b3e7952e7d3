"""Local fake model API servers (real HTTP on 127.0.0.1) for tests without network."""

from .anthropic_server import FakeAnthropicServer
from .openai_server import FakeOpenAIServer
from .script import Answer, Illegal, Malformed, RecordedRequest, Reset, Script, Stall, Status

__all__ = [
    "Answer",
    "FakeAnthropicServer",
    "FakeOpenAIServer",
    "Illegal",
    "Malformed",
    "RecordedRequest",
    "Reset",
    "Script",
    "Stall",
    "Status",
]
