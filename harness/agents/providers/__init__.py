"""Model providers: thin adapters from a :class:`ProviderRequest` to one vendor API call.

Importing this package imports no vendor SDK; :func:`get_provider` loads the adapter on demand.
"""

from .provider_contract import (
    ANSWER_MODES,
    AnswerMode,
    AnswerShape,
    Provider,
    ProviderReply,
    ProviderRequest,
    answer_grammar,
    answer_schema,
    tool_description,
)
from .provider_errors import (
    AuthenticationFailed,
    BadRequest,
    ConnectionFailed,
    FatalProviderError,
    ProviderError,
    ProviderTimeout,
    RateLimited,
    ServerError,
    TransientProviderError,
    UnknownModel,
)
from .provider_registry import get_provider, known_providers, register_provider

__all__ = [
    "ANSWER_MODES",
    "AnswerMode",
    "AnswerShape",
    "AuthenticationFailed",
    "BadRequest",
    "ConnectionFailed",
    "FatalProviderError",
    "Provider",
    "ProviderError",
    "ProviderReply",
    "ProviderRequest",
    "ProviderTimeout",
    "RateLimited",
    "ServerError",
    "TransientProviderError",
    "UnknownModel",
    "answer_grammar",
    "answer_schema",
    "get_provider",
    "known_providers",
    "register_provider",
    "tool_description",
]
