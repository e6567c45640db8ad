"""Accounts: a username and a password that sign any device in to one identity.

Accounts are optional. A person plays at once as a guest: an identity issued
by the server (:mod:`basra.server.identity`). Claiming a username with a
password attaches an *account* to that identity (``accounts``, keyed by the
identity id), so its games, ratings and history stay one person's. Signing in
with the username and password on another device issues that device its own
token for the identity, the way a transfer code does; signing out signs that
device out (its token is revoked), and the page then plays as a new guest.

Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory
profile) in worker threads, at most :data:`HASHING_AT_ONCE` at a time, so
hashing never blocks the server's event loop. A wrong password and an unknown
username get the same refusal, ``bad_login``, after the same work (an unknown
name is checked against a dummy hash), so nobody learns which usernames exist
by trying. Sign-in attempts are rate-limited per client address and per
username (``basra.server.quotas.Limits``), checked before any hashing.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.identity import Caller, Identities, Issued
from basra.server.quotas import Quotas
from basra.server.store.protocols import IdentityStore, PlayerStore
from basra.server.store.rows import AccountRow
from basra.server.table.forms import check_name

__all__ = [
    "HASHING_AT_ONCE",
    "PASSWORD_LENGTH",
    "USERNAME_LENGTH",
    "Accounts",
    "check_username",
    "username_key",
]

USERNAME_LENGTH = (words.USERNAME.low, words.USERNAME.high)
"""The shortest and longest username, in characters."""
PASSWORD_LENGTH = (8, 128)
"""The shortest and longest password, in characters."""
HASHING_AT_ONCE = 2
"""Password hashes worked out at the same time (each takes 64 MiB and a core for a moment)."""


def _bad(code: str, field: str, message: str) -> ProtocolError:
    return ProtocolError(code, message, {"field": field})


def username_key(username: str) -> str:
    """The key a username is unique by: NFKC, invisible characters removed, case-folded.

    >>> username_key("Amal_7") == username_key("\u200bamal_7")
    True
    """
    return words.clean(username).casefold()


def check_username(value: Any) -> str:
    """A username: 3 to 20 letters (any script), digits, ``_`` or ``-``; or ``bad_username``
    (:data:`basra.server.words.USERNAME`'s policy).

    >>> check_username(" Amal_7 ")
    'Amal_7'
    """
    return words.check_text("username", value, words.USERNAME)


def _check_password(value: Any) -> str:
    low, high = PASSWORD_LENGTH
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise _bad("bad_password", "password", f"a password has {low} to {high} characters")
    return value


def bad_login() -> ProtocolError:
    """The one refusal for an unknown username and for a wrong password."""
    return ProtocolError("bad_login", "no account has that username and password")


class Accounts:
    """Claim, sign in to, and describe accounts over a store, with quotas and argon2."""

    def __init__(
        self,
        store: PlayerStore,
        people: IdentityStore,
        identities: Identities,
        quotas: Quotas,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.people = people
        self.identities = identities
        self.quotas = quotas
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._hashing: asyncio.Semaphore | None = None
        self._dummy: str | None = None

    async def _in_thread(self, work: Callable[..., Any], *args: Any) -> Any:
        """Run hashing work on a thread, a few at a time, off the event loop."""
        if self._hashing is None:
            self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        async with self._hashing:
            return await asyncio.to_thread(work, *args)

    async def _verify(self, password_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return bool(self.hasher.verify(password_hash, password))
            except (VerificationError, InvalidHashError):
                return False

        verified: bool = await self._in_thread(check)
        return verified

    async def claim(self, caller: Caller, username: Any, password: Any, address: str) -> str:
        """Attach an account (a username and a password) to the caller's identity."""
        name = check_username(username)
        secret = _check_password(password)
        limits = self.quotas.limits
        self.quotas.take(
            "accounts", address, limits.accounts_per_address, "accounts claimed per address"
        )
        key = username_key(name)
        if await self.store.account_of(caller.identity) is not None:
            raise ProtocolError("has_account", "this identity already has a username")
        if await self.store.account_by_username(key) is not None:
            raise _bad("username_taken", "username", f"the username {name!r} is taken")
        password_hash: str = await self._in_thread(self.hasher.hash, secret)
        account = AccountRow(caller.identity, name, key, password_hash, self.clock())
        taken = await self.store.create_account(account)
        if taken == "identity":
            raise ProtocolError("has_account", "this identity already has a username")
        if taken == "username":
            raise _bad("username_taken", "username", f"the username {name!r} is taken")
        return name

    async def sign_in(
        self, username: Any, password: Any, address: str, user_agent: str | None
    ) -> tuple[Issued, str]:
        """A new device token for the account's identity, and the username as claimed."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise bad_login()
        key = username_key(username.strip())[:64]
        limits = self.quotas.limits
        self.quotas.take("logins", address, limits.logins_per_address, "sign-ins per address")
        self.quotas.take("logins", "user:" + key, limits.logins_per_username, "sign-ins per name")
        account = await self.store.account_by_username(key)
        secret = password[: PASSWORD_LENGTH[1] * 4]
        if account is None:
            # The same work as for a real account: the answer's timing tells nothing.
            if self._dummy is None:
                self._dummy = await self._in_thread(self.hasher.hash, secrets.token_hex(16))
            await self._verify(self._dummy, secret)
            raise bad_login()
        if not await self._verify(account.password_hash, secret):
            raise bad_login()
        identity = await self.people.load(account.identity)
        if identity is None or identity.revoked_at is not None:
            raise bad_login()
        if self.hasher.check_needs_rehash(account.password_hash):
            fresh: str = await self._in_thread(self.hasher.hash, secret)
            await self.store.set_password_hash(account.identity, fresh)
        issued = await self.identities.sign_in(account.identity, user_agent)
        return issued, account.username

    async def rename(self, caller: Caller, name: Any) -> str:
        """Change the identity's display name (the name its next seats take)."""
        checked = check_name(name)
        await self.people.name(caller.identity, checked)
        return checked

    async def username_of(self, identity: str) -> str | None:
        """The identity's username, or None for a guest."""
        account = await self.store.account_of(identity)
        return None if account is None else account.username
