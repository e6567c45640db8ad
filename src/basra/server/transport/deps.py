"""FastAPI dependencies that hand a route what the environment wired: one object per type.

The environment (:mod:`basra.server.env`) registers each service it made by its
type (:class:`Services`); a route asks for one with ``Depends(provide(QuickPlay))``
and never reaches into another object for it. A route's request body is read with
``Depends(form(Model))``, its fields checked by the model (422 ``bad_request``
naming the field of a wrong type), or, where a feature checks the fields itself,
:func:`json_body`: both take the body the guard parsed
(:class:`~basra.server.transport.guard.BodyGuard`: at most :data:`MAX_BODY`
bytes, UTF-8 JSON at most :data:`~basra.server.transport.messages.MAX_DEPTH`
levels deep, refused before any route otherwise); no route reads a body itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError
from starlette.requests import HTTPConnection, Request

from basra.server.errors import ProtocolError
from basra.server.quotas import address_key
from basra.server.transport.guard import PARSED, parse_body

__all__ = ["MAX_BODY", "Services", "address", "form", "json_body", "provide", "user_agent"]

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

MAX_BODY = 16_384
"""Largest HTTP request body accepted, in bytes."""


class Services:
    """The objects routes may ask for, by type."""

    def __init__(self) -> None:
        self._by_type: dict[type[Any], Any] = {}

    def add(self, kind: type[T], service: T) -> None:
        """Offer ``service`` to routes that ask for ``kind``."""
        self._by_type[kind] = service

    def get(self, kind: type[T]) -> T:
        """The service offered for ``kind``."""
        return cast(T, self._by_type[kind])


def provide(kind: type[T]) -> Callable[[HTTPConnection], T]:
    """A dependency giving the route the ``kind`` the environment offers."""

    def dependency(connection: HTTPConnection) -> T:
        services: Services = connection.app.state.services
        return services.get(kind)

    return dependency


def address(connection: HTTPConnection) -> str:
    """The caller's address as quotas count it (IPv4, or an IPv6 /64)."""
    return address_key(connection.client.host if connection.client else None)


def user_agent(connection: HTTPConnection) -> str | None:
    """The caller's ``User-Agent`` (shown in its list of devices)."""
    return connection.headers.get("user-agent")


def _field(error: dict[str, Any]) -> str:
    return ".".join(str(part) for part in error.get("loc", ())) or "body"


async def json_body(request: Request) -> Any:
    """The request's JSON body (``{}`` when it has none) as the guard parsed it; parsed
    here by the same parser for an app without the guard in front (a bare router)."""
    if PARSED not in request.scope:
        request.scope[PARSED] = parse_body(await request.body(), MAX_BODY)
    return request.scope[PARSED]


def form(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A dependency reading the request's JSON body as ``model``: 422 naming the field of
    a wrong type."""

    async def read(request: Request) -> M:
        data = await json_body(request)
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_input=False)
            name = _field(dict(errors[0]))
            raise ProtocolError(
                "bad_request",
                f"{name}: {errors[0]['msg']}",
                {"field": name, "fields": [_field(dict(e)) for e in errors]},
            ) from None

    return read
