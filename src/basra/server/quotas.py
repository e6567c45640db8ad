"""Quotas: how much one person, one client address or one connection may ask of the server.

Rates are token buckets (:class:`Rate`: so many per period, all of them at
once at most); caps are counts of things held at the same time (connections,
open tables). Every refusal is :class:`RateLimitError`, a ``rate_limited`` error
that names the ``limit`` and says in ``retry_after`` how many seconds to wait
(for a cap, when trying again is worth it). Addresses are grouped the way one
client holds them: an IPv4 address, or an IPv6 /64 network.

Buckets and connection counts live in this process: with several server
processes behind one address, each enforces them on its own share (the counts
of tables and tournaments come from the store, counted with the insert under a
lock: :meth:`basra.server.table.admission.Admission.admit`, so they hold across
processes).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from basra.server.errors import ProtocolError

__all__ = ["Allowance", "Limits", "Quotas", "Rate", "RateLimitError", "address_key"]


@dataclass(frozen=True)
class Rate:
    """``count`` actions per ``per`` seconds, at most ``count`` at once."""

    count: float
    per: float

    def __str__(self) -> str:
        return f"{self.count:g} per {self.per:g} s"


@dataclass(frozen=True)
class Limits:
    """Every quota of the server (``basra serve`` takes them as they are)."""

    identities_per_address: Rate = Rate(20, 3600)
    """New identities a client address may ask for."""
    tables_per_identity: Rate = Rate(10, 600)
    """Tables one person may create."""
    tables_per_address: Rate = Rate(30, 600)
    """Tables one client address may create."""
    open_tables_per_identity: int = 5
    """Tables one person may have created that are waiting or in play."""
    open_tables_per_address: int = 20
    """Tables one client address may have created that are waiting or in play."""
    bot_tables_per_identity: int = 1
    """All-bot tables (watched only) one person may have in play."""
    bot_tables: int = 20
    """All-bot tables in play on the whole server."""
    bot_tables_per_event: int = 1
    """All-bot tables (bots paired with bots) one tournament may have in play; they count
    against its maker's and the server's all-bot tables too."""
    connections_per_address: int = 40
    """WebSocket connections one client address may hold at once."""
    connections_per_identity: int = 12
    """WebSocket connections one person may hold at once (all their tabs and tables)."""
    hints_per_identity: Rate = Rate(30, 60)
    """Hints one person may ask for (and one hint per seat at a time)."""
    reviews_per_identity: Rate = Rate(12, 3600)
    """Reviews of finished games one person may ask for (each costs seconds of work)."""
    reviews_pending_per_identity: int = 2
    """Reviews one person may have waiting or being worked out at once."""
    transfers_per_identity: Rate = Rate(10, 600)
    """Transfer codes one person may ask for."""
    transfer_tries_per_address: Rate = Rate(20, 600)
    """Transfer codes a client address may try (right or wrong)."""
    accounts_per_address: Rate = Rate(10, 3600)
    """Usernames a client address may claim."""
    logins_per_address: Rate = Rate(20, 600)
    """Sign-ins (right or wrong) a client address may try."""
    logins_per_username: Rate = Rate(10, 600)
    """Sign-ins (right or wrong) to one username, from anywhere."""
    messages_per_connection: Rate = Rate(60, 3)
    """Messages one connection may send (20 a second on average, 60 at once)."""
    http_per_address: Rate = Rate(600, 60)
    """HTTP API requests one client address may make."""
    seeks_per_identity: Rate = Rate(30, 600)
    """Times one person may join the quick-play pool."""
    reactions_per_identity: Rate = Rate(5, 10)
    """Reactions (quick phrases and emoji) one person may send at tables."""
    reports_per_identity: Rate = Rate(10, 3600)
    """Reports of players one person may make."""
    reports_per_address: Rate = Rate(20, 3600)
    """Reports of players a client address may make (all its identities together)."""
    follows_per_identity: Rate = Rate(100, 86400)
    """People one person may follow in a day."""
    follows_per_address: Rate = Rate(300, 86400)
    """Follows a client address may make in a day (all its identities together)."""
    blocks_per_identity: Rate = Rate(100, 86400)
    """People one person may block in a day."""
    blocks_per_address: Rate = Rate(300, 86400)
    """Blocks a client address may make in a day (all its identities together)."""
    clubs_per_identity: Rate = Rate(3, 86400)
    """Clubs one person may make in a day."""
    clubs_per_address: Rate = Rate(10, 86400)
    """Clubs a client address may make in a day (all its identities together)."""
    club_joins_per_identity: Rate = Rate(30, 86400)
    """Clubs one person may join or ask to join in a day."""
    club_joins_per_address: Rate = Rate(100, 86400)
    """Club joins and requests a client address may make in a day (all its identities)."""
    clubs_per_member: int = 20
    """Clubs one person may belong to at once."""
    challenges_per_identity: Rate = Rate(30, 3600)
    """Challenges one person may make."""
    challenges_per_address: Rate = Rate(100, 3600)
    """Challenges a client address may make (all its identities together)."""
    events_per_address: int = 10
    """Tournaments a client address may make in 24 hours (all its accounts together)."""
    open_events_per_address: int = 4
    """Tournaments made from one client address that have not finished."""
    bot_accounts_per_identity: int = 5
    """Bot accounts one person may hold."""
    bot_tokens_per_identity: Rate = Rate(10, 3600)
    """Bot accounts made and bot tokens renewed by one person."""
    tables_per_bot: int = 10
    """Tables one bot account may sit at that are waiting or in play."""
    talk_per_identity: Rate = Rate(5, 10)
    """Lines of table talk one person may say (quick phrases too)."""
    talk_per_address: Rate = Rate(15, 10)
    """Lines of table talk a client address may say (all its identities together)."""
    cap_retry: float = 30.0
    """The ``retry_after`` of a refusal for a cap (a count held at once)."""


class RateLimitError(ProtocolError):
    """A ``rate_limited`` refusal: which limit, and after how many seconds to try again."""

    def __init__(self, limit: str, retry_after: float, message: str) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(
            "rate_limited",
            f"{message}; try again in {seconds} s",
            {"limit": limit, "retry_after": seconds},
        )
        self.limit = limit
        self.retry_after = seconds


def address_key(host: str | None) -> str:
    """The quota key of a client address: itself for IPv4, its /64 network for IPv6.

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6")
    ('203.0.113.9', '2001:db8:1:2::/64')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class _Bucket:
    __slots__ = ("full_at", "stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp
        self.full_at = stamp
        """When it is full again (then forgetting it changes nothing)."""


class Quotas:
    """Token buckets and held counts, keyed by limit name and identity or address."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic):
        self.limits = limits or Limits()
        self.clock = clock
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._held: dict[tuple[str, str], int] = {}
        self._swept = clock()

    def take(self, limit: str, key: str, rate: Rate, what: str) -> None:
        """Take one from the bucket ``(limit, key)``, or raise :class:`RateLimitError`."""
        now = self.clock()
        self._sweep(now)
        bucket = self._buckets.get((limit, key))
        if bucket is None:
            bucket = self._buckets[(limit, key)] = _Bucket(rate.count, now)
        bucket.tokens = min(
            rate.count, bucket.tokens + (now - bucket.stamp) * rate.count / rate.per
        )
        bucket.stamp = now
        if bucket.tokens < 1:
            wait = (1 - bucket.tokens) * rate.per / rate.count
            raise RateLimitError(limit, wait, f"{what}: at most {rate}")
        bucket.tokens -= 1
        bucket.full_at = now + (rate.count - bucket.tokens) * rate.per / rate.count

    def hold(self, limit: str, key: str, cap: int, what: str) -> None:
        """Count one more of ``(limit, key)`` held, or raise :class:`RateLimitError` at ``cap``."""
        held = self._held.get((limit, key), 0)
        if held >= cap:
            raise RateLimitError(limit, self.limits.cap_retry, f"{what}: at most {cap} at once")
        self._held[(limit, key)] = held + 1

    def release(self, limit: str, key: str) -> None:
        """One fewer of ``(limit, key)`` held."""
        held = self._held.get((limit, key), 0) - 1
        if held > 0:
            self._held[(limit, key)] = held
        else:
            self._held.pop((limit, key), None)

    def held(self, limit: str, key: str) -> int:
        """How many of ``(limit, key)`` are held."""
        return self._held.get((limit, key), 0)

    def _sweep(self, now: float) -> None:
        """Forget buckets full again now and then, so idle keys cost no memory (a day's rate
        is remembered for as long as it is not full)."""
        if now - self._swept < 60:
            return
        self._swept = now
        stale = [key for key, b in self._buckets.items() if now >= b.full_at]
        for key in stale:
            del self._buckets[key]


class Allowance:
    """One connection's message rate: a token bucket of ``rate`` refilled continuously.

    :meth:`take` says how long to wait when a message comes too soon; a
    connection that keeps sending after twice its burst of refusals in a row
    does not listen (:attr:`deaf`), and the transport closes it.

    >>> allowance = Allowance(Rate(2, 1), clock=lambda: 0.0)
    >>> allowance.take(), allowance.take(), allowance.take()
    (None, None, 0.5)
    """

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = rate.count / rate.per
        self.burst = rate.count
        self.clock = clock
        self.tokens = float(rate.count)
        self.checked = clock()
        self.refused = 0

    def take(self) -> float | None:
        """Take one message's token: None when allowed, else the seconds to wait."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_second)
        self.checked = now
        if self.tokens < 1:
            self.refused += 1
            return (1 - self.tokens) / self.per_second
        self.tokens -= 1
        self.refused = 0
        return None

    @property
    def deaf(self) -> bool:
        """True once the connection kept on past twice its burst of refusals in a row."""
        return self.refused > 2 * self.burst
