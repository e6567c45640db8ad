"""Identities: issued by the server, signed in per device, moved only by a one-time code.

A person is an *identity* (:class:`~basra.server.store.rows.IdentityRow`): the
server makes one when a browser first asks (``POST /api/identity``) and gives
that browser a *device token*, a random bearer secret of which the store keeps
only the SHA-256. Seats, games and quotas belong to the identity; the token only
proves which device is speaking for it.

Moving to another device never copies a secret around. A signed-in device
asks for a *transfer code*: :data:`CODE_LENGTH` characters, usable once,
for :data:`TRANSFER_TTL` seconds. The receiving page shows whose identity the
code would sign it in as, and only when the person confirms does the server
issue that device its own token. A person sees their devices and signs any of
them out; an identity can be revoked as a whole. An account (a username and an
argon2 password, :mod:`basra.server.features.accounts`) signs a device in to its
identity the same way a code does (:meth:`Identities.sign_in`).

A browser that still holds a secret of the old scheme (the SHA-256 of which
was the seat key) exchanges it, once, for a device token of the identity the
0002 migration made from that key.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.quotas import Quotas
from basra.server.store.protocols import IdentityStore, SanctionStore, TableStore
from basra.server.store.rows import DeviceRow, IdentityRow, Revoked, SanctionRow

__all__ = [
    "CODE_LENGTH",
    "TRANSFER_TTL",
    "Caller",
    "Identities",
    "Issued",
    "suspended",
    "token_hash",
]

TRANSFER_TTL = 600.0
"""Seconds a transfer code stays valid."""
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Transfer code characters: no 0/O, 1/I/L to misread."""
CODE_LENGTH = 10
"""Characters in a transfer code (about 50 bits)."""
MAX_USER_AGENT = 200


def token_hash(token: str) -> str:
    """What the store keeps of a token or code: its SHA-256, hex.

    >>> len(token_hash("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _code_key(code: str) -> str:
    return token_hash("".join(ch for ch in code.upper() if ch.isalnum()))


@dataclass(frozen=True)
class Caller:
    """Who is speaking: an identity, through one of its devices."""

    identity: str
    device: str
    name: str | None = None


@dataclass(frozen=True)
class Issued:
    """A device token just issued (shown to its device once) and who it speaks for."""

    token: str
    caller: Caller


def _signed_out() -> ProtocolError:
    return ProtocolError(
        "signed_out", "this device is signed out (or its identity was revoked): sign in again"
    )


def suspended(sanction: SanctionRow) -> ProtocolError:
    """The refusal of a suspended or banned identity's token (HTTP 403, sockets 4003)."""
    until = (
        "for good"
        if sanction.until is None
        else "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(sanction.until))
    )
    return ProtocolError(
        "suspended",
        f"this identity is {sanction.kind} {until}: {sanction.reason}",
        {"kind": sanction.kind, "until": sanction.until},
    )


class Identities:
    """Issue, check, move and revoke identities over their store."""

    def __init__(
        self,
        store: IdentityStore,
        tables: TableStore,
        quotas: Quotas,
        clock: Callable[[], float] = time.time,
        sanctions: SanctionStore | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.quotas = quotas
        self.clock = clock
        self.sanctions = sanctions
        """Suspensions and bans (:mod:`basra.server.features.moderation`): a sanctioned
        identity's tokens are refused as ``suspended``."""

    async def create(
        self, address: str, user_agent: str | None = None, legacy_secret: str | None = None
    ) -> Issued:
        """A new identity and its first device (or the legacy identity of an old secret)."""
        limits = self.quotas.limits
        self.quotas.take(
            "identities", address, limits.identities_per_address, "new identities per address"
        )
        now = self.clock()
        if legacy_secret is not None:
            old = token_hash(legacy_secret)
            if await self.store.claim_legacy(old):
                row = await self.store.load(old)
                return await self._issue(old, row.name if row else None, user_agent, now)
        identity = IdentityRow(id=secrets.token_hex(16), created_at=now)
        await self.store.create(identity)
        return await self._issue(identity.id, None, user_agent, now)

    async def _issue(
        self, identity: str, name: str | None, user_agent: str | None, now: float
    ) -> Issued:
        token = secrets.token_urlsafe(32)
        device = DeviceRow(
            id=secrets.token_hex(8),
            identity=identity,
            created_at=now,
            last_seen_at=now,
            user_agent=(user_agent or "")[:MAX_USER_AGENT] or None,
        )
        await self.store.add_device(device, token_hash(token))
        return Issued(token, Caller(identity, device.id, name))

    async def authenticate(self, token: str | None) -> Caller | None:
        """The caller a token speaks for; None without a token; ``signed_out`` if revoked."""
        if token is None:
            return None
        if not 16 <= len(token) <= 128:
            raise _signed_out()
        found = await self.store.device_by_token(token_hash(token))
        if found is None:
            raise _signed_out()
        device, identity = found
        now = self.clock()
        if self.sanctions is not None:
            sanction = await self.sanctions.sanction_of(identity.id, now)
            if sanction is not None:
                raise suspended(sanction)
        if device.last_seen_at < now - 60:
            await self.store.touch_device(device.id, now)
        return Caller(identity.id, device.id, identity.name)

    async def transfer_code(self, caller: Caller) -> dict[str, Any]:
        """A one-time code that signs another device in as ``caller``'s identity."""
        limits = self.quotas.limits
        self.quotas.take(
            "transfers", caller.identity, limits.transfers_per_identity, "transfer codes"
        )
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        now = self.clock()
        await self.store.add_transfer(
            _code_key(code), caller.identity, caller.device, now, now + TRANSFER_TTL
        )
        return {"code": f"{code[:5]}-{code[5:]}", "expires_in": int(TRANSFER_TTL)}

    def _try(self, address: str) -> None:
        limits = self.quotas.limits
        self.quotas.take(
            "transfer_tries", address, limits.transfer_tries_per_address, "transfer code tries"
        )

    async def preview(self, code: Any, address: str) -> dict[str, Any]:
        """Whose identity a code would sign this device in as (the code stays unused)."""
        self._try(address)
        identity = await self.store.find_transfer(_check_code(code), self.clock())
        if identity is None:
            raise _no_code()
        row = await self.store.load(identity)
        games = await self.tables.games_of(identity, limit=1000)
        return {"name": row.name if row else None, "games": len(games)}

    async def accept(self, code: Any, address: str, user_agent: str | None) -> Issued:
        """Use a code (once): a new device token for its identity."""
        self._try(address)
        now = self.clock()
        identity = await self.store.use_transfer(_check_code(code), now)
        if identity is None:
            raise _no_code()
        row = await self.store.load(identity)
        if row is None or row.revoked_at is not None:
            raise _no_code()
        return await self._issue(identity, row.name, user_agent, now)

    async def sign_in(self, identity: str, user_agent: str | None) -> Issued:
        """A new device token for an identity whose account was just checked
        (:mod:`basra.server.features.accounts`), issued the way :meth:`accept` issues one."""
        row = await self.store.load(identity)
        if row is None or row.revoked_at is not None:
            raise _signed_out()
        return await self._issue(identity, row.name, user_agent, self.clock())

    async def devices(self, caller: Caller) -> list[dict[str, Any]]:
        """The identity's signed-in devices, this one marked ``current``."""
        return [
            {
                "id": d.id,
                "created_at": d.created_at,
                "last_seen_at": d.last_seen_at,
                "user_agent": d.user_agent,
                "current": d.id == caller.device,
            }
            for d in await self.store.devices_of(caller.identity)
        ]

    async def sign_out(self, caller: Caller, device_ids: list[str]) -> list[str]:
        """Sign out some of the caller's own devices (the transfer codes they made stop
        working); returns those signed out."""
        return await self.store.revoke_devices(caller.identity, device_ids, self.clock())

    async def revoke(self, caller: Caller) -> Revoked:
        """Revoke the caller's identity with every device, transfer code and bot account
        of it."""
        return await self.store.revoke(caller.identity, self.clock())


def _no_code() -> ProtocolError:
    return ProtocolError(
        "bad_code", "no such transfer code: it may be mistyped, used already, or expired"
    )


def _check_code(code: Any) -> str:
    if not isinstance(code, str) or not 1 <= len(code) <= 32:
        raise _no_code()
    return _code_key(code)
