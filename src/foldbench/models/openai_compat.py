"""An adapter for any server that speaks the OpenAI chat-completions protocol (OpenAI, vLLM, SGLang, ...).

One ``POST {base_url}/chat/completions`` per attempt, with one chat message per message of the conversation (a
user turn's content lists its text and images as base64 data URLs; a video goes as its key frames). Rate limits, server
errors, timeouts and dropped connections are retried with exponential backoff and jitter (or after the server's
``Retry-After``, up to the longest backoff); other client errors are not, and neither is a server that cannot be
reached at all (connection refused, unknown host), which no wait would fix. Every failure comes back as a
:class:`ModelReply` with ``error`` and ``error_kind`` set, never as an exception; that includes a hostile body
(one over :data:`MAX_BODY_BYTES`, not UTF-8, nested too deep, with a number of thousands of digits), and lone
surrogates in a reply are replaced (see :mod:`foldbench.models._response`).

The transport is :mod:`foldbench.models._http`: kept-alive connections, one pool per event loop, request heads
written by h11 and replies parsed by llhttp (``httptools``), a cap on the reply's size and the failures typed for
the retry rules above.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from foldbench import __version__
from foldbench.messages import ImagePart, Part, TextPart, VideoPart
from foldbench.models._files import PromptFiles, dataset_file
from foldbench.models._http import ConnectError, ConnectionPool, HttpError, PayloadError
from foldbench.models._response import Failure, reply_from_body, server_message
from foldbench.models._retry import backoff_delay, is_retryable_status, parse_retry_after
from foldbench.models.base import ModelReply, ModelRequest
from foldbench.models.errors import ModelConfigError, PromptInputError

__all__ = ["OpenAICompatibleModel", "message_payload"]

_RESERVED_BODY_KEYS = frozenset({"model", "messages"})
MAX_BODY_BYTES = 32 << 20
"""The largest response body read (a reply of a million tokens is a few MiB)."""


def message_payload(request: ModelRequest, files: PromptFiles | None = None) -> list[dict[str, Any]]:
    """The chat messages for a request, one per message of its conversation.

    A system message and an assistant turn are sent as plain text; a user turn as a list of content parts: text
    parts become ``{"type": "text", ...}``, images ``{"type": "image_url", ...}`` with a base64 data URL (from the
    dataset file or the bytes in memory), and a video the image parts of its key frames.

    Args:
        request: the request to send.
        files: a cache of encoded images to reuse across requests (optional).

    Raises:
        PromptInputError: a file is missing, outside the dataset directory, or a video has no key frames.
    """
    files = files if files is not None else PromptFiles()
    messages: list[dict[str, Any]] = []
    for message in request.conversation.messages:
        if message.role == "user":
            messages.append({"role": "user", "content": _content(message.parts, request.dataset_dir, files)})
        elif message.role == "assistant" or message.text:
            messages.append({"role": message.role, "content": message.text})
    return messages


def _content(parts: tuple[Part, ...], dataset_dir: Path | None, files: PromptFiles) -> list[dict[str, Any]]:
    content: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, TextPart):
            content.append({"type": "text", "text": part.text})
        elif isinstance(part, ImagePart):
            content.append(_image_url(files.image_data_url(part, dataset_dir)))
        elif isinstance(part, VideoPart):
            if not part.frames:
                raise PromptInputError(f"video {part.path} has no key frames to send to an image-only model")
            content.extend(_image_url(files.data_url(dataset_file(dataset_dir, frame))) for frame in part.frames)
        else:  # pragma: no cover - Part admits nothing else
            raise TypeError(f"unknown message part {part!r}")
    return content


def _image_url(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def _oversized(size: int) -> Failure:
    return Failure(
        "bad_response", f"the response body is over {MAX_BODY_BYTES >> 20} MiB ({size:,} bytes); not read", False
    )


class OpenAICompatibleModel:
    """A model served over the OpenAI chat-completions protocol.

    Args:
        model: the model name the server knows (``"gpt-4o"``, ``"Qwen/Qwen2.5-VL-7B-Instruct"``, ...).
        base_url: the API root, e.g. ``"http://127.0.0.1:8000/v1"`` (a trailing slash is ignored).
        api_key: sent as a bearer token when given (local servers often need none).
        temperature: sampling temperature (0 for greedy).
        max_tokens: the reply length limit, or None for the server's default.
        timeout_s: the limit on one attempt, in seconds.
        max_retries: retries after the first attempt (so at most ``1 + max_retries`` attempts).
        backoff_base_s: the first retry's backoff ceiling; it doubles with each retry.
        backoff_max_s: the largest backoff ceiling, and the longest a server's ``Retry-After`` is waited.
        extra_body: more fields merged into the request body (``top_p``, ``seed``, vendor options, ...).
        api_key_env: the environment variable the key came from, named in authentication errors.
        jitter_seed: seeds the backoff jitter, so runs (and tests) wait the same pauses.

    Raises:
        ModelConfigError: an argument out of range, or ``extra_body`` trying to set ``model`` or ``messages``.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        timeout_s: float = 120,
        max_retries: int = 5,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60,
        extra_body: dict[str, Any] | None = None,
        api_key_env: str | None = None,
        jitter_seed: int = 0,
    ) -> None:
        base_url = base_url.rstrip("/")
        problems = []
        if not model:
            problems.append("the model name is empty")
        if not base_url.startswith(("http://", "https://")) or not urlsplit(base_url).hostname:
            problems.append(f"base_url {base_url!r} must start with http:// or https:// and name a host")
        if api_key is not None and not (api_key.isascii() and api_key.isprintable()):
            problems.append("the API key must be printable ASCII")
        if temperature < 0:
            problems.append(f"temperature must be at least 0, got {temperature}")
        if max_tokens is not None and max_tokens < 1:
            problems.append(f"max_tokens must be at least 1, got {max_tokens}")
        if timeout_s <= 0:
            problems.append(f"timeout_s must be positive, got {timeout_s}")
        if max_retries < 0:
            problems.append(f"max_retries must be at least 0, got {max_retries}")
        if backoff_base_s < 0 or backoff_max_s < 0:
            problems.append("backoff_base_s and backoff_max_s must be at least 0")
        reserved = sorted(_RESERVED_BODY_KEYS & set(extra_body or {}))
        if reserved:
            problems.append(f"extra_body may not set {', '.join(reserved)}")
        if problems:
            raise ModelConfigError(f"openai:{model}: " + "; ".join(problems))
        self.model = model
        self.base_url = base_url
        self.url = f"{base_url}/chat/completions"
        self.name = f"openai:{model}"
        self.params: Mapping[str, Any] = {
            "temperature": float(temperature),
            "max_tokens": max_tokens,
            "extra_body": dict(extra_body or {}),
        }
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.api_key_env = api_key_env
        self._path = urlsplit(self.url)._replace(scheme="", netloc="").geturl()
        self._headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"foldbench/{__version__}",
        }
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._rng = random.Random(jitter_seed)
        self._files = PromptFiles()
        self._pool: ConnectionPool | None = None
        self._pool_loop: asyncio.AbstractEventLoop | None = None

    def __repr__(self) -> str:
        return f"OpenAICompatibleModel({self.model!r}, base_url={self.base_url!r}, params={self.params!r})"

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The JSON body sent for ``request`` (see :func:`message_payload`)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": message_payload(request, self._files),
            "temperature": self.params["temperature"],
        }
        if self.params["max_tokens"] is not None:
            body["max_tokens"] = self.params["max_tokens"]
        body.update(self.params["extra_body"])
        body.update({k: v for k, v in request.params.items() if k not in _RESERVED_BODY_KEYS})
        return body

    def _http(self) -> ConnectionPool:
        """The connection pool of the running event loop (made on first use, and again for a new loop)."""
        loop = asyncio.get_running_loop()
        if self._pool is None or self._pool.closed or self._pool_loop is not loop:
            self._pool = ConnectionPool(self.url, self._headers)
            self._pool_loop = loop
        return self._pool

    async def complete(self, request: ModelRequest) -> ModelReply:
        """Send the request, retrying transient failures; a final failure is returned as an error reply.

        Raises:
            PromptInputError: a file of the prompt cannot be read (a broken dataset, not a backend failure).
        """
        content = json.dumps(self.request_body(request), ensure_ascii=False).encode("utf-8")
        return await self._complete(self._http(), content)

    async def _complete(self, client: ConnectionPool, content: bytes) -> ModelReply:
        retries: list[dict[str, Any]] = []
        attempt = 0
        while True:
            attempt += 1
            started = time.perf_counter()
            outcome = await self._attempt(client, content)
            latency_s = time.perf_counter() - started
            if isinstance(outcome, ModelReply):
                extra = {**outcome.extra, "retries": retries} if retries else dict(outcome.extra)
                return ModelReply(
                    text=outcome.text,
                    latency_s=latency_s,
                    attempts=attempt,
                    prompt_tokens=outcome.prompt_tokens,
                    completion_tokens=outcome.completion_tokens,
                    finish_reason=outcome.finish_reason,
                    extra=extra,
                )
            if not outcome.retryable or attempt > self.max_retries:
                suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
                return ModelReply(
                    text="",
                    error=f"{self.name}: {outcome.message}{suffix}",
                    error_kind=outcome.kind,
                    latency_s=latency_s,
                    attempts=attempt,
                    extra={"retries": retries} if retries else {},
                )
            if outcome.retry_after_s is not None:
                delay = min(outcome.retry_after_s, self.backoff_max_s)
            else:
                delay = backoff_delay(attempt - 1, base_s=self.backoff_base_s, max_s=self.backoff_max_s, rng=self._rng)
            retries.append({"kind": outcome.kind, "delay_s": delay})
            await asyncio.sleep(delay)

    async def _attempt(self, client: ConnectionPool, content: bytes) -> ModelReply | Failure:
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await client.post(self._path, content, MAX_BODY_BYTES)
        except TimeoutError:
            return Failure("timeout", f"no reply from {self.url} within {self.timeout_s:g} s", True)
        except ConnectError as error:
            return Failure(
                "connection",
                f"cannot reach {self.url} ({error}); check --base-url and that the server is running",
                False,
            )
        except PayloadError as error:
            return Failure("bad_response", f"the response body cannot be decoded: {error}", False)
        except HttpError as error:  # dropped connections, broken responses: worth another attempt
            return Failure("connection", f"lost the connection to {self.url}: {error}", True)
        if response.oversized is not None:
            return _oversized(response.oversized)
        return self._outcome(response.status, response.headers, response.body)

    def _outcome(self, status: int, headers: Mapping[str, str], body: bytes) -> ModelReply | Failure:
        if 200 <= status <= 299:
            return reply_from_body(body)
        detail = server_message(body)
        if status in (401, 403):
            where = f"the environment variable {self.api_key_env}" if self.api_key_env else "its environment variable"
            return Failure(
                "auth",
                f"HTTP {status} from {self.url}: the server refused the request ({detail}); "
                f"check the API key in {where}",
                False,
            )
        if status == 404:
            return Failure(
                "not_found",
                f"HTTP 404 from {self.url}: model {self.model!r} or the URL was not found ({detail}); "
                "check the model name and base URL (it usually ends in /v1)",
                False,
            )
        retry_after = parse_retry_after(headers.get("retry-after"))
        retry_after_ms = parse_retry_after(headers.get("retry-after-ms"))
        if retry_after_ms is not None:
            retry_after = retry_after_ms / 1000
        message = f"HTTP {status} from {self.url}: {detail}"
        return Failure(f"http_{status}", message, is_retryable_status(status), retry_after)

    async def aclose(self) -> None:
        """Close the HTTP connections (the adapter opens new ones if used again)."""
        pool, loop, self._pool, self._pool_loop = self._pool, self._pool_loop, None, None
        if pool is not None and not pool.closed and loop is asyncio.get_running_loop():
            await pool.close()
