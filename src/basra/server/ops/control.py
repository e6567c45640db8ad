"""The operator's side of one process: its settings, and what ``/metrics``, ``/readyz`` and
``/admin`` answer with (:mod:`basra.server.transport.routes.ops`).

``/metrics`` and every ``/admin`` route answer only a client whose address is in
``metrics_allow`` (after the trusted proxy's ``X-Forwarded-For``: a person on the
internet reaching them through the proxy is refused, the operator on the host is not);
``/admin`` also needs the admin token (``[secrets] admin_token``), and is off without
one. The shipped proxy configuration refuses both paths from outside as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.ops.drain import Drain
from basra.server.ops.metrics import Metrics
from basra.server.ops.readiness import Readiness

__all__ = ["SAMPLE_EVERY", "Operations", "OpsConfig", "Sampler"]

SAMPLE_EVERY = 2.0
"""Seconds between two readings of the gauges (and of the store's counts: every 5th)."""
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

log = logging.getLogger("basra.server.ops")


def _local() -> list[Network]:
    return [ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128")]


@dataclass
class OpsConfig:
    """How this process is operated (``basra serve --config``'s ``[operations]`` and
    ``[secrets]``)."""

    metrics_allow: list[Network] = field(default_factory=_local)
    """Client addresses that may read ``/metrics`` and call ``/admin``."""
    metrics_dir: str | None = None
    """prometheus-client's multiprocess directory, shared by this host's processes."""
    admin_token: str | None = None
    """The bearer token of ``/admin`` (None: the admin API is off)."""
    daily_secret: bytes | None = None
    """The daily deal's secret (None: one made once and kept in the store)."""


@dataclass
class Operations:
    """What the operations routes use: the metrics, the checks, the drain."""

    config: OpsConfig
    metrics: Metrics
    readiness: Readiness
    drain: Drain
    health: Callable[[], dict[str, Any]]

    def allowed(self, host: str | None) -> bool:
        """Whether a client address may read metrics and call the admin API."""
        if host is None:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.config.metrics_allow)

    def check(self, host: str | None, token: str | None, admin: bool) -> None:
        """Refuse (``not_allowed``) a client not in the allowed networks or, for the admin
        API, without the admin token (``token``: the request's bearer token, as
        :func:`basra.server.transport.auth.bearer` reads it)."""
        if not self.allowed(host):
            raise ProtocolError("not_allowed", "this address may not use this")
        if not admin:
            return
        admin_token = self.config.admin_token
        if admin_token is None:
            raise ProtocolError("not_allowed", "the admin API is off: set [secrets] admin_token")
        if not hmac.compare_digest((token or "").encode(), admin_token.encode()):
            raise ProtocolError("not_allowed", "a wrong admin token")


class Sampler:
    """Reads the gauges every :data:`SAMPLE_EVERY` seconds (in multiprocess mode another
    process may answer ``/metrics``, so every process keeps its files current)."""

    def __init__(self, read: Callable[[], Any], read_store: Callable[[], Any]) -> None:
        self.read = read
        self.read_store = read_store
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        beat = 0
        while True:
            try:
                self.read()
                if beat % 5 == 0:
                    await self.read_store()
            except Exception:
                log.exception("cannot read the metrics")
            beat += 1
            await asyncio.sleep(SAMPLE_EVERY)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
