"""Identities, devices, transfer codes and accounts (*auth*: a device token).

- ``POST /api/identity``: a new identity and this device's token
  (``{"legacy_secret"}`` exchanges a secret of the old scheme, once).
- ``GET /api/identity`` (auth): the identity's name, username and signed-in devices;
  ``PATCH /api/identity`` (auth) ``{"name"}``: change the display name;
  ``DELETE /api/identity`` (auth): revoke it, with every device and its bot accounts.
- ``POST /api/identity/transfer`` (auth): a one-time code for another device;
  ``POST /api/identity/transfer/preview`` ``{"code"}``: whose identity it is;
  ``POST /api/identity/transfer/accept`` ``{"code"}``: a token for this device.
- ``DELETE /api/devices/{id}`` (auth): sign one of the identity's devices out.
- ``POST /api/account`` (auth) ``{"username", "password"}``: claim a username;
  ``POST /api/account/login`` ``{"username", "password"}``: a token for this device,
  signed in to that account's identity.

Signing out and revoking end what the device or identity holds, in every
process (:mod:`basra.server.revocation`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from basra.server.errors import ProtocolError
from basra.server.features.accounts import Accounts
from basra.server.identity import Identities, Issued
from basra.server.revocation import Revocations
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, form, provide, user_agent

__all__ = ["AccountForm", "CodeForm", "IdentityForm", "NameForm", "router"]

router = APIRouter()

IdentitiesDep = Annotated[Identities, Depends(provide(Identities))]
AccountsDep = Annotated[Accounts, Depends(provide(Accounts))]
RevocationsDep = Annotated[Revocations, Depends(provide(Revocations))]
Address = Annotated[str, Depends(address)]
Agent = Annotated[str | None, Depends(user_agent)]


class IdentityForm(BaseModel):
    """``POST /api/identity``: optionally, a secret of the old scheme to exchange."""

    model_config = ConfigDict(extra="forbid", strict=True)
    legacy_secret: str | None = None


class CodeForm(BaseModel):
    """A transfer code typed or opened on the receiving device."""

    model_config = ConfigDict(extra="forbid", strict=True)
    code: str


class AccountForm(BaseModel):
    """A username and a password: to claim an account, or to sign in to one."""

    model_config = ConfigDict(extra="forbid", strict=True)
    username: str
    password: str


class NameForm(BaseModel):
    """``PATCH /api/identity``: a new display name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


def _issued(issued: Issued) -> dict[str, Any]:
    return {"token": issued.token, "device": issued.caller.device, "name": issued.caller.name}


@router.post("/api/identity")
async def new_identity(
    body: Annotated[IdentityForm, Depends(form(IdentityForm))],
    identities: IdentitiesDep,
    where: Address,
    agent: Agent,
) -> JSONResponse:
    """A new identity (or a legacy one exchanged) and this device's token."""
    issued = await identities.create(where, agent, body.legacy_secret)
    return JSONResponse(_issued(issued), status_code=201)


@router.get("/api/identity")
async def my_identity(
    me: SignedIn, identities: IdentitiesDep, accounts: AccountsDep
) -> dict[str, Any]:
    """The caller's name, username (null for a guest), device and devices."""
    devices = await identities.devices(me)
    username = await accounts.username_of(me.identity)
    return {"name": me.name, "username": username, "device": me.device, "devices": devices}


@router.patch("/api/identity")
async def rename(
    me: SignedIn,
    body: Annotated[NameForm, Depends(form(NameForm))],
    accounts: AccountsDep,
) -> dict[str, Any]:
    """Change the display name."""
    return {"name": await accounts.rename(me, body.name)}


@router.delete("/api/identity")
async def revoke_identity(
    me: SignedIn, identities: IdentitiesDep, revocations: RevocationsDep
) -> dict[str, Any]:
    """Revoke the caller's identity, its devices, transfer codes and bot accounts."""
    revoked = await identities.revoke(me)
    await revocations.revoke(revoked.devices, revoked.bots)
    return {"revoked": True}


@router.post("/api/identity/transfer")
async def transfer(me: SignedIn, identities: IdentitiesDep) -> JSONResponse:
    """A one-time code that signs another device in as the caller's identity."""
    return JSONResponse(await identities.transfer_code(me), status_code=201)


@router.post("/api/identity/transfer/preview")
async def preview(
    body: Annotated[CodeForm, Depends(form(CodeForm))], identities: IdentitiesDep, where: Address
) -> dict[str, Any]:
    """Whose identity a code would sign this device in as."""
    return await identities.preview(body.code, where)


@router.post("/api/identity/transfer/accept")
async def accept(
    body: Annotated[CodeForm, Depends(form(CodeForm))],
    identities: IdentitiesDep,
    where: Address,
    agent: Agent,
) -> JSONResponse:
    """Use a code: a token for this device."""
    issued = await identities.accept(body.code, where, agent)
    return JSONResponse(_issued(issued), status_code=201)


@router.delete("/api/devices/{device_id}")
async def sign_out(
    device_id: str, me: SignedIn, identities: IdentitiesDep, revocations: RevocationsDep
) -> dict[str, Any]:
    """Sign one of the caller's devices out (its connections close everywhere)."""
    gone = await identities.sign_out(me, [device_id[:64]])
    if not gone:
        raise ProtocolError("no_such_device", f"you have no signed-in device {device_id!r}")
    await revocations.revoke(gone)
    return {"signed_out": gone}


@router.post("/api/account")
async def claim(
    me: SignedIn,
    body: Annotated[AccountForm, Depends(form(AccountForm))],
    accounts: AccountsDep,
    where: Address,
) -> JSONResponse:
    """Claim a username (with a password) for the caller's identity."""
    username = await accounts.claim(me, body.username, body.password, where)
    return JSONResponse({"username": username}, status_code=201)


@router.post("/api/account/login")
async def login(
    body: Annotated[AccountForm, Depends(form(AccountForm))],
    accounts: AccountsDep,
    where: Address,
    agent: Agent,
) -> JSONResponse:
    """Sign this device in to an account's identity."""
    issued, username = await accounts.sign_in(body.username, body.password, where, agent)
    return JSONResponse({**_issued(issued), "username": username}, status_code=201)
