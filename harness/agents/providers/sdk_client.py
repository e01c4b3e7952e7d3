"""The base of the providers built on a vendor SDK client (OpenAI, Anthropic): the key from its
environment variable (required unless ``base_url`` points at a local server), the answer mode,
and the client made with the SDK's own retries off (the harness retries)."""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any, ClassVar

from .provider_contract import AnswerMode, Provider, resolve_api_key


class SdkClientProvider(Provider):
    """Settings: ``base_url``, ``api_key_env`` (default :attr:`default_api_key_env`; required
    unless ``base_url`` is given), ``default_answer_mode``, ``default_headers``.  Subclasses make
    their SDK's client in :meth:`make_client` (importing the SDK there)."""

    default_api_key_env: ClassVar[str]
    placeholder_key: ClassVar[str]  # stands in for a key a local server does not ask for

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        default_answer_mode: AnswerMode | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        env = api_key_env or self.default_api_key_env
        key = resolve_api_key(env, required=base_url is None, provider=self.name)
        self.base_url = base_url
        if default_answer_mode is not None:
            self.default_answer_mode = default_answer_mode
        self._client = self.make_client(
            api_key=key or self.placeholder_key,
            base_url=base_url,
            max_retries=0,
            default_headers=dict(default_headers) if default_headers else None,
        )

    @abc.abstractmethod
    def make_client(self, **options: Any) -> Any:
        """The SDK's async client made with ``options`` (``api_key``, ``base_url``,
        ``max_retries``, ``default_headers``)."""
