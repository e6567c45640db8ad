"""Web Push: notifications that reach a person's browser, or installed app, while the page
is closed.

**Keys.** The operator's VAPID key pair (RFC 8292) signs every request to a push service;
``basra admin vapid`` makes one and prints the lines for the configuration
(``[push]`` in docs/DEPLOY.md). The public key is served to the page
(``GET /api/push``), which subscribes with it. Without a private key push is *off*:
``GET /api/push`` says so, the settings page says so, :meth:`Push.deliver` sends nothing,
and nothing else changes.

**Subscriptions and choices.** A page subscribes in its service worker (the PushManager)
and posts the subscription (:meth:`Push.subscribe`): the push service's endpoint and the
browser's two keys, with the page's language (``lang``, one of
:func:`basra.locales.languages`; English when not given), posted again each time the
page re-posts the subscription: what is sent to that browser is worded in it. When
the browser replaces a subscription, its service worker posts the new one with the old
one (:meth:`Push.renew`: the old auth secret shows whose it is; the old one's language
is kept). A person keeps at most :attr:`PushConfig.most_subscriptions` (their oldest go
first); a page unsubscribes one (:meth:`Push.unsubscribe`). A person opts into kinds
one by one (:data:`KINDS`; :meth:`Push.choose`); nothing is sent for a kind they
did not choose, and nobody has chosen any until they do.

**The notifications list.** Push is a listener of the list
(:meth:`~basra.server.features.notifications.Notifications.on_added`, wired in
``env.py``): :meth:`Push.notified` maps an item's kind to a push kind
(:data:`FROM_LIST`: a challenge and its answers and a rematch are ``challenge``; the
others by their own name; kinds not there are not pushed) and words it for each
subscription in that subscription's language, with the one wording of an item on the
server (:func:`~basra.server.features.notifications.note_text`, the page's
``note_<kind>`` words): the app's name as the title, the item's words as the body, the
item's address to open.

**Delivery.** :meth:`Push.deliver` is the one entry point: the listener above (and any
feature) calls it with a person, a kind, the words (text, or a function of a language)
and the address to open. It checks the choice and stores one *send* for each of the
person's subscriptions, worded in its language, in one transaction
(:mod:`basra.server.features.push.store`), then queues each on the server's job queue
(:mod:`basra.server.runtime.jobs`, kind ``push``), so the worker loop of some server
process (any of them, on Redis) delivers it: the payload encrypted
to the browser's keys as RFC 8291 says (``aes128gcm``) and the request signed with
VAPID, both by `pywebpush <https://github.com/web-push-libs/pywebpush>`_ (no crypto
made here). What the push service answers decides:

- 2xx: delivered; the send is deleted;
- 404 or 410: the subscription is gone (the person unsubscribed in the browser, or it
  expired); it is dropped with its sends;
- 429, 5xx, or no answer (a timeout, a refused connection): tried again later, after
  :attr:`PushConfig.backoff` seconds doubled at each try (at least what ``Retry-After``
  asks), up to :attr:`PushConfig.tries` tries, then given up;
- any other answer (400, 403, 413): given up at once (trying again would not help).

Sends survive a restart: :meth:`Push.start` queues again every send still stored.
A send may rarely be delivered twice (a process that dies after the push service took
it and before it deleted the row); a notification shown twice is the lesser harm.

**Endpoints.** The server posts to the address a page gives, so only ``https://``
endpoints on a host name are taken (never an IP address or ``localhost``);
:attr:`PushConfig.insecure_endpoints` lifts that for tests, which run their push
service on localhost.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from basra.locales import languages, message
from basra.server.errors import ProtocolError
from basra.server.features.notifications import NotificationRow, note_text
from basra.server.features.push.store import (
    PushStore,
    Send,
    SqlPush,
    Subscription,
    endpoint_key,
)
from basra.server.runtime.jobs import Beat, JobQueue

__all__ = [
    "FROM_LIST",
    "JOB",
    "KINDS",
    "Push",
    "PushConfig",
    "PushStore",
    "SqlPush",
    "Subscription",
    "make_keys",
    "public_key_of",
]

log = logging.getLogger(__name__)

JOB = "push"
"""The job queue's kind for one send."""

KINDS = ("your_turn", "challenge", "tournament_soon", "club_event", "reply")
"""What a person may opt into: it is their turn in a game; someone challenged them; a
tournament they entered starts soon; an event of their club; a reply to them."""

FROM_LIST = {
    "challenge": "challenge",
    "challenge_accepted": "challenge",
    "challenge_declined": "challenge",
    "challenge_expired": "challenge",
    "rematch": "challenge",
    "your_turn": "your_turn",
    "tournament_soon": "tournament_soon",
    "club_event": "club_event",
}
"""The push kind (what a person opts into) of each kind of the notifications list that
is pushed; a kind not here is listed, never pushed."""

Words = str | Callable[[str], str]
"""A notification's title or body: the text, or the text in a language (a function of
its code)."""

MAX_TITLE = 120
MAX_BODY = 400
MAX_URL = 512
MAX_ENDPOINT = 2048


@dataclass
class PushConfig:
    """How Web Push is sent (``[push]`` in the configuration file)."""

    vapid_private_key: str | None = None
    """The VAPID private key: PEM, or its 32 bytes in base64url (``basra admin vapid``).
    None: push is off."""
    subject: str = ""
    """Who the push services may write to: ``mailto:`` or ``https:`` (RFC 8292's ``sub``)."""
    tries: int = 5
    """Tries of one send before it is given up."""
    backoff: float = 5.0
    """Seconds before the first retry; doubled at each one."""
    most_backoff: float = 900.0
    """The longest wait between two tries."""
    ttl: int = 86400
    """Seconds a push service keeps a notification for a browser that is not online."""
    timeout: float = 10.0
    """Seconds one request to a push service may take."""
    concurrency: int = 16
    """Sends worked on at once by one process."""
    most_subscriptions: int = 10
    """Subscriptions a person keeps (browsers, phones); the oldest go first."""
    insecure_endpoints: bool = False
    """Accept ``http://`` endpoints and local hosts (tests only)."""


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _vapid(private_key: str) -> Any:
    """The py_vapid key of a PEM or a base64url private key (a :class:`ValueError` if not)."""
    from py_vapid import Vapid

    text = private_key.strip()
    try:
        if "BEGIN" in text:
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    except Exception as error:  # py_vapid raises what cryptography raises
        raise ValueError(f"not a VAPID private key (PEM or base64url): {error}") from None


def public_key_of(private_key: str) -> str:
    """The public key, in base64url as a page's PushManager takes it, of a private key."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    vapid = _vapid(private_key)
    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64encode(raw)


def make_keys() -> tuple[str, str]:
    """A new VAPID key pair: the private key (base64url, 32 bytes) and the public key."""
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = _b64encode(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, public_key_of(private)


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_push", message, {"field": field})


def _endpoint(value: Any, insecure: bool) -> str:
    """A subscription's endpoint, checked: an https URL on a host name."""
    if not isinstance(value, str) or not value or len(value) > MAX_ENDPOINT:
        raise _bad("endpoint", f"give the push service's URL (at most {MAX_ENDPOINT} characters)")
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
    except ValueError:
        raise _bad("endpoint", "the endpoint is not a URL") from None
    if insecure:
        if parts.scheme not in ("https", "http") or not host:
            raise _bad("endpoint", "the endpoint must be an http(s) URL")
        return value
    if parts.scheme != "https" or not host:
        raise _bad("endpoint", "the endpoint must be an https URL")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise _bad("endpoint", "the endpoint must name a push service's host, not an address")
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        raise _bad("endpoint", "the endpoint must name a push service's host")
    return value


def _key(keys: dict[str, Any], name: str, size: int) -> str:
    value = keys.get(name)
    field = f"keys.{name}"
    if not isinstance(value, str) or len(value) > 2 * size:
        raise _bad(field, f"give the subscription's {name} key (base64url)")
    try:
        raw = _b64decode(value)
    except (binascii.Error, ValueError):
        raise _bad(field, f"the {name} key is not base64url") from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise _bad(field, f"the {name} key is not a key of its size ({size} bytes)")
    if name == "p256dh":
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raise _bad(field, "the p256dh key is not a point of the P-256 curve") from None
    return value


def _lang(value: Any) -> str:
    """A page's language, checked: one the catalogues have."""
    if not isinstance(value, str) or value not in languages():
        raise _bad("lang", f"lang: one of {', '.join(languages())}")
    return value


def _worded(words: Words, lang: str) -> str:
    return words if isinstance(words, str) else words(lang)


def _path(url: str) -> str:
    """A notification's address on this site: a path, else the home page (a browser
    reads ``/\\host`` as ``//host``: another site)."""
    if url.startswith("/") and not url.startswith("//") and "\\" not in url and len(url) <= MAX_URL:
        return url
    return "/"


class Push:
    """Web Push: subscriptions, choices and delivery (see the module docstring)."""

    def __init__(
        self,
        store: PushStore,
        jobs: JobQueue,
        config: PushConfig | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.config = config = config or PushConfig()
        self.clock = clock
        self.vapid: Any = None
        self.public_key: str | None = None
        if config.vapid_private_key:
            self.vapid = _vapid(config.vapid_private_key)
            self.public_key = public_key_of(config.vapid_private_key)
        self._session: Any = None
        self.delivered = 0
        self.dropped = 0
        self.retried = 0
        self.failed = 0
        jobs.register(JOB, self.work, config.concurrency, timeout=int(config.timeout) * 3)

    @property
    def enabled(self) -> bool:
        """Whether the operator configured keys."""
        return self.vapid is not None

    async def start(self) -> None:
        """Queue again every send a stopped process left."""
        if not self.enabled:
            return
        for send_id in await self.store.waiting():
            await self.jobs.enqueue(JOB, str(send_id))

    def counts(self) -> dict[str, int]:
        """What this process's sends came to since it started (for ``/healthz``)."""
        return {
            "delivered": self.delivered,
            "retried": self.retried,
            "dropped": self.dropped,
            "failed": self.failed,
        }

    async def close(self) -> None:
        """Close the connections to the push services."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    # ------------------------------------------------------------------ the person's

    async def settings(self, identity: str) -> dict[str, Any]:
        """What the settings page shows: whether push is on, the public key, the kinds
        and those chosen, how many subscriptions the person has."""
        return {
            "enabled": self.enabled,
            "public_key": self.public_key,
            "kinds": list(KINDS),
            "chosen": sorted(await self.store.chosen(identity)),
            "subscriptions": len(await self.store.subscriptions(identity)),
        }

    def _subscription(self, identity: str, body: Any, lang: str = "en") -> Subscription:
        """The subscription a body gives (itself, or under ``subscription``) with the
        page's ``lang`` beside it (``lang`` when not given)."""
        if not isinstance(body, dict):
            raise _bad("subscription", "give the subscription: {endpoint, keys}")
        given = body.get("subscription", body) if "endpoint" not in body else body
        if not isinstance(given, dict):
            raise _bad("subscription", "give the subscription: {endpoint, keys}")
        if "lang" in body:
            lang = _lang(body["lang"])
        unknown = set(given) - {"endpoint", "keys", "expirationTime", "lang"}
        if unknown:
            raise _bad(sorted(unknown)[0][:40], "the subscription has no such field")
        endpoint = _endpoint(given.get("endpoint"), self.config.insecure_endpoints)
        keys = given.get("keys")
        if not isinstance(keys, dict):
            raise _bad("keys", "give the subscription's keys: {p256dh, auth}")
        p256dh, auth = _key(keys, "p256dh", 65), _key(keys, "auth", 16)
        return Subscription(
            endpoint_key(endpoint), identity, endpoint, p256dh, auth, self.clock(), lang
        )

    def _on(self) -> None:
        if not self.enabled:
            raise ProtocolError(
                "push_off", "this server sends no push notifications (it has no VAPID keys)"
            )

    async def subscribe(self, identity: str, body: Any) -> dict[str, Any]:
        """Keep a browser's subscription ``{endpoint, keys: {p256dh, auth}}`` (as the
        PushManager gives it, or under ``subscription``) and the page's ``lang``."""
        self._on()
        subscription = self._subscription(identity, body)
        await self.store.subscribe(subscription, self.config.most_subscriptions)
        return {"subscribed": True, "subscriptions": len(await self.store.subscriptions(identity))}

    async def renew(self, body: Any) -> dict[str, Any]:
        """A browser's new subscription in place of its old one (the service worker's
        ``pushsubscriptionchange``, which has no sign-in): ``{"old": {endpoint, keys},
        "subscription": {endpoint, keys}}``. The old one's endpoint and auth secret, which
        only that browser and this server hold, show whose it is; the new one is that
        person's, in the language given (``lang``), else the old one's."""
        self._on()
        old = body.get("old") if isinstance(body, dict) else None
        if not isinstance(old, dict) or not isinstance(old.get("endpoint"), str):
            raise _bad("old", "give the old subscription: {endpoint, keys}")
        keys = old.get("keys")
        auth = keys.get("auth") if isinstance(keys, dict) else None
        found = await self.store.subscription(endpoint_key(old["endpoint"]))
        if (
            found is None
            or found.endpoint != old["endpoint"]
            or not isinstance(auth, str)
            or not hmac.compare_digest(found.auth, auth)
        ):
            raise _bad("old", "no such subscription here")
        given = body.get("subscription")
        if isinstance(given, dict) and "lang" in body:
            given = {"subscription": given, "lang": body["lang"]}
        fresh = self._subscription(found.identity, given, found.lang)
        await self.store.drop(found.key)
        await self.store.subscribe(fresh, self.config.most_subscriptions)
        return {"renewed": True}

    async def unsubscribe(self, identity: str, body: Any) -> dict[str, Any]:
        """Drop the caller's subscription of ``{endpoint}``."""
        endpoint = body.get("endpoint") if isinstance(body, dict) else None
        if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
            raise _bad("endpoint", "give the endpoint of the subscription to drop")
        gone = await self.store.unsubscribe(identity, endpoint_key(endpoint))
        left = len(await self.store.subscriptions(identity))
        return {"unsubscribed": gone, "subscriptions": left}

    async def choose(self, identity: str, body: Any) -> dict[str, Any]:
        """Opt into ``{kinds: [...]}`` (and out of every other kind)."""
        kinds = body.get("kinds") if isinstance(body, dict) else None
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise _bad("kinds", f"give a list of kinds among {', '.join(KINDS)}")
        for i, kind in enumerate(kinds):
            if kind not in KINDS:
                raise _bad(f"kinds.{i}", f"{kind[:40]!r} is not one of {', '.join(KINDS)}")
        await self.store.choose(identity, kinds)
        return {"chosen": sorted(set(kinds))}

    # ------------------------------------------------------------------ delivery

    async def deliver(self, person_id: str, kind: str, title: Words, body: Words, url: str) -> int:
        """Queue a notification to every browser of a person who opted into ``kind``,
        worded in each browser's language: how many sends were queued (0 when push is
        off, or not chosen)."""
        if kind not in KINDS:
            raise ValueError(f"{kind!r} is not a kind of push notification ({', '.join(KINDS)})")
        if not self.enabled:
            return 0

        def payload(lang: str) -> str:
            return json.dumps(
                {
                    "kind": kind,
                    "title": _worded(title, lang)[:MAX_TITLE],
                    "body": _worded(body, lang)[:MAX_BODY],
                    "url": _path(url),
                    "tag": f"{kind}:{_path(url)}",
                    "lang": lang,
                },
                ensure_ascii=False,
            )

        ids = await self.store.queue(person_id, kind, payload, self.clock())
        for send_id in ids:
            await self.jobs.enqueue(JOB, str(send_id))
        return len(ids)

    async def notified(self, row: NotificationRow) -> int:
        """The notifications list's listener: the item pushed as its push kind
        (:data:`FROM_LIST`), worded in each subscription's language (the app's name, and
        the item's words); how many sends were queued (0: not a pushed kind, not chosen,
        or push off)."""
        kind = FROM_LIST.get(row.kind)
        if kind is None:
            return 0
        return await self.deliver(
            row.identity,
            kind,
            lambda lang: message(lang, "app_name"),
            lambda lang: note_text(lang, row.kind, row.data),
            row.url,
        )

    async def work(self, key: str, beat: Beat | None = None) -> None:
        """The ``push`` job: one send, to its subscription's push service."""
        try:
            found = await self.store.send(int(key))
        except ValueError:
            return
        if found is None:
            return  # delivered or given up
        send, subscription = found
        if subscription is None:  # it went (gone, or unsubscribed)
            await self.store.done(send.id)
            return
        status, wait = await self.post(subscription, send)
        if status is not None and 200 <= status < 300:
            await self.store.done(send.id)
            self.delivered += 1
        elif status in (404, 410):
            await self.store.drop(subscription.key)
            self.dropped += 1
        elif _passing(status) and send.tries + 1 < self.config.tries:
            await self.store.tried(send.id)
            delay = min(self.config.backoff * 2**send.tries, self.config.most_backoff)
            self.jobs.later(JOB, key, max(delay, min(wait or 0.0, self.config.most_backoff)))
            self.retried += 1
        else:
            log.warning("push send %s given up after %d tries: %s", key, send.tries + 1, status)
            await self.store.done(send.id)
            self.failed += 1

    def _client(self) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.config.timeout)
            )
        return self._session

    async def post(self, subscription: Subscription, send: Send) -> tuple[int | None, float | None]:
        """Send one payload: the push service's status (None: no answer; 0: it could not
        be made) and the seconds its ``Retry-After`` asks for."""
        import aiohttp
        from pywebpush import WebPushException, webpush_async

        info = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        try:
            response = await webpush_async(
                info,
                send.payload,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.config.subject},
                ttl=self.config.ttl,
                timeout=cast(Any, aiohttp.ClientTimeout(total=self.config.timeout)),
                headers={"Urgency": "high" if send.kind == "your_turn" else "normal"},
                aiohttp_session=self._client(),
            )
        except WebPushException as error:
            answer = error.response
            if answer is None:
                return None, None
            return int(answer.status), _retry_after(answer.headers.get("Retry-After"))
        except ValueError as error:  # what cannot be encrypted to these keys, ever
            log.warning("push send to %s cannot be made: %s", subscription.key, error)
            return 0, None
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            log.info("push service of %s unreachable: %s", subscription.key, error)
            return None, None
        return int(cast(Any, response).status), None


def _passing(status: int | None) -> bool:
    """Whether a push service's answer may be different if asked again."""
    return status is None or status == 429 or status >= 500


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds (its date form is taken as no hint)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
