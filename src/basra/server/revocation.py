"""Signing out and revoking: everything a device or an identity holds ends, in every process.

Signing a device out (``DELETE /api/devices/{id}``) or revoking an identity
(``DELETE /api/identity``) ends, at once:

- every socket it holds in any server process: tables, quick play, the bot API
  (tournaments to come use the same socket pump, so theirs too). Each is sent
  ``signed_out`` and closed with 4001 (:class:`~basra.server.connection.Connections`);
- its seek in the quick-play pool: quick play drops the seek of a connection
  closed so, instead of keeping its place for a reconnect;
- the transfer codes it made: the store takes a code as valid only while the
  device that made it is signed in (and revokes them with it);
- for an identity, the bot accounts it owns, revoked in the same transaction:
  their tokens stop working, their programs are disconnected, and their seats
  at tables in play are played by the stand-in bot, as for a program that
  stopped answering. Bots do not pass to another owner: a bot account speaks
  for the person who made it, and nobody else can vouch for its program.

The store's rows change first (so nothing can sign in again anywhere); then
this process closes its connections and tells the others on the bus, which
close theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from basra.server.connection import Connections
from basra.server.errors import ProtocolError, error_message
from basra.server.runtime.pubsub import Bus

__all__ = ["Revocations"]

FAREWELL = error_message(ProtocolError("signed_out", "this device was signed out"))


class Revocations:
    """Closes what signed-out devices and revoked identities hold, here and elsewhere."""

    def __init__(self, connections: Connections, bus: Bus) -> None:
        self.connections = connections
        self.bus = bus
        bus.on("revoke", self.heard)

    async def revoke(self, devices: Sequence[str] = (), identities: Sequence[str] = ()) -> None:
        """Close the connections of those devices and identities in every process."""
        if not devices and not identities:
            return
        self.connections.revoke(devices, identities, FAREWELL)
        await self.bus.publish(
            {"kind": "revoke", "devices": list(devices), "identities": list(identities)}
        )

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process revoked some: close their connections here."""
        devices, identities = notice.get("devices"), notice.get("identities")
        self.connections.revoke(
            [d for d in devices if isinstance(d, str)] if isinstance(devices, list) else [],
            [i for i in identities if isinstance(i, str)] if isinstance(identities, list) else [],
            FAREWELL,
        )
