"""Web Push end to end, without the internet: a push service in the test (an aiohttp app on
localhost) takes the server's requests, checks their VAPID JWT (RFC 8292) against the
server's public key and decrypts each payload (RFC 8291, aes128gcm) with the private keys
of a "browser" made here; gone subscriptions (410) are dropped, a 500 is tried again,
nothing is sent for a kind not opted into, and the settings, refusals and keys."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import http_ece
import pytest
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from tests.web.helpers import FAST, ROOT, ServerThread, http, new_token, started_env
from tests.web.test_services import postgres, redis  # noqa: F401 (fixtures)

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.features.notifications import NotificationRow
from basra.server.features.push import KINDS, PushConfig, Subscription, make_keys, public_key_of
from basra.server.features.push.store import endpoint_key
from basra.server.ops.config import ConfigError, parse_config
from basra.server.stores import open_store

SUBJECT = "mailto:push-test@example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(public), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        text = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(text))


def check_vapid(header: str, server_key: str, audience: str) -> dict[str, Any]:
    """RFC 8292: ``vapid t=JWT, k=KEY``; the key is the server's and signs the JWT (ES256),
    whose audience is the push service's origin and which has not expired."""
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid", header
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    token = fields["t"]
    head, claims, signature = token.split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    body = dict(json.loads(unb64(claims)))
    assert body["aud"] == audience and body["sub"] == SUBJECT
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    return body


@dataclass
class Received:
    path: str
    headers: Any
    """Case-insensitive, as HTTP's."""
    body: bytes


@dataclass
class PushService:
    """A push service on localhost: each endpoint ``/p/NAME`` answers the statuses
    scripted for it in turn (the last one from then on), 201 when none is."""

    url: str = ""
    script: dict[str, list[int]] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def endpoint(self, name: str, *statuses: int) -> str:
        self.script[name] = list(statuses)
        return f"{self.url}/p/{name}"

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path == f"/p/{name}"]


@asynccontextmanager
async def push_service() -> AsyncIterator[PushService]:
    service = PushService()

    async def take(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        service.received.append(
            Received(request.path, request.headers.copy(), await request.read())
        )
        statuses = service.script.get(name) or [201]
        status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
        return web.Response(status=status)

    app = web.Application()
    app.router.add_post("/p/{name}", take)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    service.url = f"http://127.0.0.1:{port}"
    try:
        yield service
    finally:
        await runner.cleanup()


def push_config(**changes: Any) -> PushConfig:
    private, _ = make_keys()
    base = {
        "vapid_private_key": private,
        "subject": SUBJECT,
        "backoff": 0.05,
        "insecure_endpoints": True,
    }
    return PushConfig(**{**base, **changes})


async def push_env(config: PushConfig, database: str = "memory") -> Env:
    env = Env(AppConfig(service=FAST, push=config, database=database))
    await env.start(resume=False)
    return env


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def person(env: Env) -> str:
    return (await env.identities.create("127.0.0.1")).caller.identity


def test_a_notification_reaches_the_push_service_signed_and_encrypted_for_the_browser() -> None:
    async def scenario() -> None:
        async with push_service() as service:
            env = await push_env(push_config())
            try:
                amal = await person(env)
                phone, laptop = Browser(), Browser()
                await env.push.subscribe(amal, phone.subscription(service.endpoint("phone")))
                await env.push.subscribe(
                    amal, {"subscription": laptop.subscription(service.endpoint("laptop"))}
                )
                await env.push.choose(amal, {"kinds": ["your_turn", "reply"]})
                settings = await env.push.settings(amal)
                assert settings["enabled"] and settings["subscriptions"] == 2
                assert settings["chosen"] == ["reply", "your_turn"] and settings["kinds"] == list(
                    KINDS
                )
                assert settings["public_key"] == public_key_of(
                    env.config.push.vapid_private_key or ""
                )
                sent = await env.push.deliver(
                    amal, "your_turn", "Your turn — Badr played 7♦", "At table 3", "/t/abc123"
                )
                assert sent == 2
                await until(lambda: len(service.received) == 2)
                for name, browser in (("phone", phone), ("laptop", laptop)):
                    (request,) = service.to(name)
                    assert request.headers["Content-Encoding"] == "aes128gcm"
                    assert (
                        request.headers["TTL"] == "86400" and request.headers["Urgency"] == "high"
                    )
                    check_vapid(
                        request.headers["Authorization"], settings["public_key"], service.url
                    )
                    shown = browser.decrypt(request.body)
                    assert shown == {
                        "kind": "your_turn",
                        "title": "Your turn — Badr played 7♦",
                        "body": "At table 3",
                        "url": "/t/abc123",
                        "tag": "your_turn:/t/abc123",
                        "lang": "en",
                    }
                    with pytest.raises(
                        http_ece.ECEException, match="InvalidTag"
                    ):  # another browser's keys cannot read it
                        Browser().decrypt(request.body)
                await until(lambda: env.push.delivered == 2)
                assert await env.store.push.waiting() == []  # delivered sends are gone
                # The check really checks: another key's name over this signature fails.
                auth = service.to("phone")[0].headers["Authorization"]
                other = public_key_of(make_keys()[0])
                with pytest.raises(InvalidSignature):
                    check_vapid(auth.replace(settings["public_key"], other), other, service.url)
            finally:
                await env.close()

    asyncio.run(scenario())


def test_nothing_is_sent_for_a_kind_not_opted_into_and_an_address_off_the_site_opens_home() -> None:
    async def scenario() -> None:
        async with push_service() as service:
            env = await push_env(push_config())
            try:
                amal, badr = await person(env), await person(env)
                browser = Browser()
                await env.push.subscribe(amal, browser.subscription(service.endpoint("a")))
                await env.push.subscribe(badr, Browser().subscription(service.endpoint("b")))
                # Nobody opted into anything yet: nothing at all.
                assert (
                    await env.push.deliver(amal, "challenge", "Badr challenges you", "", "/c/1")
                    == 0
                )
                await env.push.choose(amal, {"kinds": ["challenge"]})
                assert await env.push.deliver(amal, "your_turn", "Your turn", "", "/t/x") == 0
                assert (
                    await env.push.deliver(badr, "challenge", "Amal challenges you", "", "/c/2")
                    == 0
                )
                # Opted out again: nothing.
                await env.push.choose(amal, {"kinds": []})
                assert await env.push.deliver(amal, "challenge", "Again", "", "/c/3") == 0
                await env.push.choose(amal, {"kinds": ["challenge"]})
                assert (
                    await env.push.deliver(
                        amal, "challenge", "Now", "x" * 5000, "https://evil.example/"
                    )
                    == 1
                )
                await until(lambda: len(service.received) == 1)
                assert [r.path for r in service.received] == ["/p/a"]
                shown = browser.decrypt(service.received[0].body)
                assert shown["title"] == "Now" and shown["url"] == "/" and len(shown["body"]) == 400
                for elsewhere in ("//evil.example/x", "/\\evil.example/x", "javascript:alert(1)"):
                    assert await env.push.deliver(amal, "challenge", "x", "", elsewhere) == 1
                await until(lambda: len(service.received) == 4)
                assert {browser.decrypt(r.body)["url"] for r in service.received[1:]} == {"/"}
                with pytest.raises(ValueError, match="not a kind"):
                    await env.push.deliver(amal, "spam", "x", "", "/")
                # As a listener of the notifications list: its items of a kind pushed are
                # delivered, worded by the catalogue; a kind not opted into (your_turn), or
                # one the list has and push has not, is not.
                await env.notifications.add(amal, "challenge", {"from": "Badr"}, "/c/9")
                await env.notifications.add(amal, "your_turn", {"table": "x"}, "/t/x")
                item = NotificationRow("n1", amal, "season_end", {}, "/", 0.0)
                assert await env.push.notified(item) == 0
                await until(lambda: len(service.received) == 5)
                await asyncio.sleep(0.2)
                assert len(service.received) == 5
                shown = browser.decrypt(service.received[4].body)
                assert shown["body"] == "Badr challenges you to a game" and shown["url"] == "/c/9"
            finally:
                await env.close()

    asyncio.run(scenario())


def test_a_gone_subscription_is_dropped_and_a_failing_push_service_is_tried_again() -> None:
    async def scenario() -> None:
        async with push_service() as service:
            env = await push_env(push_config(tries=3))
            try:
                amal = await person(env)
                await env.push.choose(amal, {"kinds": ["reply"]})
                flaky, gone, down = Browser(), Browser(), Browser()
                await env.push.subscribe(
                    amal, flaky.subscription(service.endpoint("flaky", 500, 503, 201))
                )
                await env.push.subscribe(amal, gone.subscription(service.endpoint("gone", 410)))
                await env.push.subscribe(amal, down.subscription(service.endpoint("down", 500)))
                assert await env.push.deliver(amal, "reply", "Badr answered", "gg", "/u/badr") == 3
                # The flaky one: two 5xx, then delivered on the third try, the same payload.
                await until(lambda: len(service.to("flaky")) == 3 and env.push.delivered == 1)
                texts = [flaky.decrypt(r.body)["title"] for r in service.to("flaky")]
                assert texts == ["Badr answered"] * 3
                # The gone one: asked once, dropped with its sends.
                assert len(service.to("gone")) == 1
                # The one always down: given up after three tries, its subscription kept.
                await until(lambda: env.push.failed == 1)
                assert len(service.to("down")) == 3
                assert env.push.dropped == 1 and env.push.retried == 4
                assert env.health()["push"] == {
                    "delivered": 1,
                    "retried": 4,
                    "dropped": 1,
                    "failed": 1,
                }
                left = {
                    s.endpoint.rsplit("/", 1)[1] for s in await env.store.push.subscriptions(amal)
                }
                assert left == {"flaky", "down"}
                assert await env.store.push.waiting() == []
                assert (await env.push.settings(amal))["subscriptions"] == 2
                # An unreachable push service is a failure to try again too.
                closed = Browser().subscription("http://127.0.0.1:9/p/nobody")
                await env.push.subscribe(amal, closed)
                await env.push.deliver(amal, "reply", "x", "", "/")
                await until(lambda: env.push.failed == 3 and env.push.delivered == 2)
                assert len(service.to("down")) == 6 and len(service.to("flaky")) == 4
            finally:
                await env.close()

    asyncio.run(scenario())


def test_sends_left_by_a_stopped_server_are_delivered_after_its_restart(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = str(tmp_path / "push.db")
        config = push_config(backoff=3600.0)
        async with push_service() as service:
            env = await push_env(config, database)
            amal = await person(env)
            browser = Browser()
            await env.push.choose(amal, {"kinds": ["tournament_soon"]})
            await env.push.subscribe(amal, browser.subscription(service.endpoint("b", 503, 201)))
            await env.push.deliver(
                amal, "tournament_soon", "Friday Arena starts in 5 minutes", "", "/tournaments/fri"
            )
            await until(lambda: env.push.retried == 1)  # the next try is an hour away...
            await env.close()
            assert len(await stored(database)) == 1  # ...and the send is kept
            again = await push_env(config, database)  # restarted: it is queued again at once
            try:
                await until(lambda: again.push.delivered == 1)
                assert browser.decrypt(service.to("b")[-1].body)["url"] == "/tournaments/fri"
                assert await again.store.push.waiting() == []
            finally:
                await again.close()

    async def stored(database: str) -> list[int]:
        store = open_store(database)
        await store.start()
        try:
            return await store.push.waiting()
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_person_keeps_a_few_subscriptions_and_a_browser_subscribing_again_is_one() -> None:
    async def scenario() -> None:
        env = await push_env(push_config(most_subscriptions=2))
        try:
            amal, badr = await person(env), await person(env)
            browsers = [Browser() for _ in range(3)]
            for i, browser in enumerate(browsers):
                env.push.clock = lambda i=i: 1000.0 + i  # type: ignore[misc]
                await env.push.subscribe(amal, browser.subscription(f"https://push.example/{i}"))
            kept = [s.endpoint for s in await env.store.push.subscriptions(amal)]
            assert kept == ["https://push.example/1", "https://push.example/2"]  # the oldest went
            # The same browser, now signed in as Badr: the subscription is his.
            await env.push.subscribe(badr, browsers[2].subscription("https://push.example/2"))
            assert [s.endpoint for s in await env.store.push.subscriptions(amal)] == [
                "https://push.example/1"
            ]
            assert (await env.push.unsubscribe(badr, {"endpoint": "https://push.example/1"}))[
                "unsubscribed"
            ] is False
            assert (await env.push.unsubscribe(amal, {"endpoint": "https://push.example/1"}))[
                "unsubscribed"
            ] is True
            assert await env.store.push.subscriptions(amal) == []
            # The browser replaced Badr's subscription: its service worker posts the new
            # one with the old one, whose auth secret shows whose it is.
            old = browsers[2].subscription("https://push.example/2")
            fresh = Browser().subscription("https://push.example/new")
            wrong = {**old, "keys": {**old["keys"], "auth": b64(b"y" * 16)}}
            for forged in (wrong, {"endpoint": "https://push.example/none", "keys": old["keys"]}):
                with pytest.raises(ProtocolError) as refused:
                    await env.push.renew({"old": forged, "subscription": fresh})
                assert refused.value.code == "bad_push"
                assert (refused.value.extra or {})["field"] == "old"
            assert await env.push.renew({"old": old, "subscription": fresh}) == {"renewed": True}
            kept = await env.store.push.subscriptions(badr)
            assert [(s.endpoint, s.auth) for s in kept] == [
                ("https://push.example/new", fresh["keys"]["auth"])
            ]
            # Badr deletes his identity: his subscriptions and choices go with it.
            await env.push.choose(badr, {"kinds": ["reply"]})
            await env.store.identities.revoke(badr, 2000.0)
            assert await env.store.push.subscriptions(badr) == []
            assert await env.store.push.chosen(badr) == set()
        finally:
            await env.close()

    asyncio.run(scenario())


def test_subscriptions_and_choices_are_checked_field_by_field() -> None:
    async def scenario() -> None:
        env = await push_env(push_config(insecure_endpoints=False))
        try:
            amal = await person(env)
            good = Browser().subscription("https://fcm.googleapis.com/fcm/send/abc")
            await env.push.subscribe(amal, good)

            async def field_of(body: Any, work: str = "subscribe") -> str:
                try:
                    await getattr(env.push, work)(amal, body)
                except ProtocolError as error:
                    assert error.code == "bad_push"
                    return str((error.extra or {})["field"])
                raise AssertionError("not refused")

            def with_(**changes: Any) -> dict[str, Any]:
                return {**good, **changes}

            assert await field_of([1]) == "subscription"
            assert await field_of(with_(endpoint="http://push.example/x")) == "endpoint"
            assert await field_of(with_(endpoint="https://127.0.0.1/x")) == "endpoint"
            assert await field_of(with_(endpoint="https://[::1]/x")) == "endpoint"
            assert await field_of(with_(endpoint="https://localhost/x")) == "endpoint"
            assert await field_of(with_(endpoint="https://a.example/" + "x" * 3000)) == "endpoint"
            assert await field_of(with_(endpoint=5)) == "endpoint"
            assert await field_of(with_(keys=None)) == "keys"
            assert await field_of(with_(keys={**good["keys"], "p256dh": "AAAA"})) == "keys.p256dh"
            assert await field_of(with_(keys={**good["keys"], "p256dh": "!!!"})) == "keys.p256dh"
            off_curve = b64(b"\x04" + b"\x01" * 64)
            assert (
                await field_of(with_(keys={**good["keys"], "p256dh": off_curve})) == "keys.p256dh"
            )
            assert (
                await field_of(with_(keys={**good["keys"], "auth": b64(b"x" * 15)})) == "keys.auth"
            )
            assert await field_of(with_(extra=1)) == "extra"
            assert await field_of({"kinds": "reply"}, "choose") == "kinds"
            assert await field_of({"kinds": ["reply", "news"]}, "choose") == "kinds.1"
            assert await field_of({}, "unsubscribe") == "endpoint"
            assert (await env.push.settings(amal))["chosen"] == []
        finally:
            await env.close()

    asyncio.run(scenario())


def test_the_routes_say_when_push_is_off_and_take_subscriptions_when_it_is_on() -> None:
    with ServerThread(AppConfig(service=FAST)) as off:
        token = new_token(off.url)
        status, body = http(f"{off.url}/api/push", token=token)
        assert status == 200 and body["enabled"] is False and body["public_key"] is None
        subscription = Browser().subscription("https://push.example/s")
        status, body = http(f"{off.url}/api/push/subscribe", subscription, token=token)
        assert status == 503 and body["error"] == "push_off"
        assert http(f"{off.url}/api/push")[0] == 401
        # The page's address is the page (a reload or a bookmark), not a 404.
        with urllib.request.urlopen(f"{off.url}/settings/notifications", timeout=10) as page:
            assert page.status == 200 and b"/static/app.js" in page.read()
    config = push_config(insecure_endpoints=False)
    with ServerThread(AppConfig(service=FAST, push=config)) as on:
        token = new_token(on.url)
        status, body = http(f"{on.url}/api/push", token=token)
        assert (
            status == 200
            and body["enabled"]
            and body["public_key"] == public_key_of(config.vapid_private_key or "")
        )
        status, body = http(f"{on.url}/api/push/subscribe", subscription, token=token)
        assert (status, body) == (200, {"subscribed": True, "subscriptions": 1})
        status, body = http(
            f"{on.url}/api/push/subscribe", {**subscription, "endpoint": "ftp://x"}, token=token
        )
        assert status == 422 and body["error"] == "bad_push" and body["field"] == "endpoint"
        status, body = http(
            f"{on.url}/api/push/subscribe", {**subscription, "lang": "zz"}, token=token
        )
        assert status == 422 and body["error"] == "bad_push" and body["field"] == "lang"
        status, body = http(
            f"{on.url}/api/push/subscribe", {**subscription, "lang": "ar"}, token=token
        )
        assert (status, body) == (200, {"subscribed": True, "subscriptions": 1})
        status, body = http(
            f"{on.url}/api/push/kinds", {"kinds": ["reply", "your_turn"]}, token=token
        )
        assert (status, body) == (200, {"chosen": ["reply", "your_turn"]})
        renewed = Browser().subscription("https://push.example/t")
        status, body = http(
            f"{on.url}/api/push/renew", {"old": subscription, "subscription": renewed}
        )
        assert (status, body) == (200, {"renewed": True})  # no token: the old keys show whose
        subscription = renewed
        status, body = http(
            f"{on.url}/api/push/unsubscribe", {"endpoint": subscription["endpoint"]}, token=token
        )
        assert (status, body) == (200, {"unsubscribed": True, "subscriptions": 0})


def test_the_keys_come_from_the_configuration_and_basra_admin_vapid_makes_them(
    tmp_path: Path,
) -> None:
    out = tmp_path / "vapid.key"
    made = subprocess.run(
        [sys.executable, "-m", "basra", "admin", "vapid", "--out", str(out), "--subject", SUBJECT],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert out.stat().st_mode & 0o777 == 0o600
    lines = [line for line in made.stdout.splitlines() if not line.startswith("#")]
    config = parse_config("\n".join(lines))
    assert config.app.push.vapid_private_key == out.read_text().strip()
    public = public_key_of(out.read_text())
    assert public in made.stdout and len(unb64(public)) == 65
    # Made again over the same file: refused, the key kept.
    again = subprocess.run(
        [sys.executable, "-m", "basra", "admin", "vapid", "--out", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert again.returncode != 0 and "cannot write" in again.stderr
    # No key: push is off. A key without a subject, a bad key, a bad subject: said.
    assert parse_config("").app.push.vapid_private_key is None
    (tmp_path / "bad.key").write_text("x" * 50)
    for text, words in (
        (f'[secrets]\nvapid_private_key = {{ file = "{out}" }}', "[push] subject"),
        (
            f'[secrets]\nvapid_private_key = {{ file = "{tmp_path / "bad.key"}" }}\n'
            f'[push]\nsubject = "{SUBJECT}"',
            "not a VAPID private key",
        ),
        ('[push]\nsubject = "someone@example.org"', "mailto:"),
        ("[push]\ntries = 0", "[push] tries"),
    ):
        with pytest.raises(ConfigError, match=words.replace("[", r"\[")):
            parse_config(text)
    # A PEM works as well as the raw key.
    pem = tmp_path / "vapid.pem"
    key = ec.generate_private_key(ec.SECP256R1())
    from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

    pem.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    config = parse_config(
        f'[secrets]\nvapid_private_key = {{ file = "{pem}" }}\n[push]\nsubject = "{SUBJECT}"'
    )
    raw = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert public_key_of(config.app.push.vapid_private_key or "") == b64(raw)


def test_a_started_environment_without_keys_sends_nothing() -> None:
    async def scenario() -> None:
        env = await started_env()
        try:
            amal = await person(env)
            await env.push.choose(amal, {"kinds": list(KINDS)})
            assert await env.push.deliver(amal, "your_turn", "x", "", "/") == 0
            assert (await env.push.settings(amal))["enabled"] is False
        finally:
            await env.close()

    asyncio.run(scenario())


def test_a_send_that_cannot_be_made_is_given_up_at_once() -> None:
    async def scenario() -> None:
        async with push_service() as service:
            env = await push_env(push_config())
            try:
                amal = await person(env)
                await env.push.choose(amal, {"kinds": ["reply"]})
                # Stored as an older server might have taken it: a key off the curve.
                keys = {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b64(b"a" * 16)}
                endpoint = service.endpoint("bad")
                await env.store.push.subscribe(
                    Subscription(endpoint_key(endpoint), amal, endpoint, *keys.values(), 1.0), 10
                )
                assert await env.push.deliver(amal, "reply", "x", "", "/") == 1
                await until(lambda: env.push.failed == 1)
                assert service.received == [] and await env.store.push.waiting() == []
            finally:
                await env.close()

    asyncio.run(scenario())


@pytest.mark.services
def test_two_processes_on_postgresql_and_redis_share_the_sends(postgres: str, redis: str) -> None:  # noqa: F811
    """Two server environments on one PostgreSQL and one Redis: the ``push`` jobs are saq's,
    taken by whichever process is free; retries and drops as on one process."""

    async def scenario() -> None:
        async with push_service() as service:
            config = push_config(tries=3, backoff=0.2)
            envs = []
            for origin in ("one", "two"):
                app = AppConfig(service=FAST, push=config, database=postgres, redis=redis)
                env = Env(app, origin=origin)
                await env.start(resume=False)
                envs.append(env)
            one, two = envs
            try:
                people = [await person(one) for _ in range(20)]
                browsers = {}
                for n, who in enumerate(people):
                    await two.push.choose(who, {"kinds": ["your_turn"]})
                    browsers[n] = Browser()
                    statuses = (500, 201) if n == 0 else (410,) if n == 1 else (201,)
                    endpoint = service.endpoint(str(n), *statuses)
                    await two.push.subscribe(who, browsers[n].subscription(endpoint))
                for n, who in enumerate(people):
                    assert await one.push.deliver(who, "your_turn", f"Turn {n}", "", f"/t/{n}") == 1

                def total(name: str) -> int:
                    return sum(getattr(env.push, name) for env in envs)

                await until(lambda: total("delivered") == 19 and total("dropped") == 1, 30)
                assert total("retried") == 1 and len(service.to("0")) == 2
                for n in range(20):
                    if n != 1:
                        assert (
                            browsers[n].decrypt(service.to(str(n))[-1].body)["title"] == f"Turn {n}"
                        )
                assert await one.store.push.subscriptions(people[1]) == []
                assert await one.store.push.waiting() == []
                # An item kept once across processes (a tournament starting soon): both
                # processes keep it at the same moment, one row; and the language column.
                who = people[2]
                made = await asyncio.gather(
                    *(
                        env.notifications.add_once(
                            who, "tournament_soon", {"name": "Cup"}, "/tournaments/x", "soon:x"
                        )
                        for env in envs
                    )
                )
                assert sum(item is not None for item in made) == 1
                items = (await two.notifications.listing(who))["items"]
                assert [i["kind"] for i in items] == ["tournament_soon"]
                await one.push.subscribe(
                    who, {**Browser().subscription(service.endpoint("ar")), "lang": "ar"}
                )
                assert [s.lang for s in await two.store.push.subscriptions(who)] == ["en", "ar"]
            finally:
                for env in envs:
                    await env.close()

    asyncio.run(scenario())


async def named(env: Env, name: str) -> str:
    who = await person(env)
    await env.store.identities.name(who, name)
    return who


def test_a_challenge_is_pushed_to_each_browser_in_the_language_of_its_page() -> None:
    async def scenario() -> None:
        async with push_service() as service:
            env = await push_env(push_config())
            try:
                amal, badr, carl = [await named(env, n) for n in ("Amal", "Badr", "Carl")]
                phones = {"badr": Browser(), "carl": Browser(), "amal": Browser()}
                for who, name, lang in ((badr, "badr", "ar"), (carl, "carl", "en")):
                    sub = phones[name].subscription(service.endpoint(name))
                    await env.push.subscribe(who, {**sub, "lang": lang})
                    await env.push.choose(who, {"kinds": ["challenge"]})
                # The maker's page was in French, its subscription posted under "subscription".
                sub = phones["amal"].subscription(service.endpoint("amal"))
                await env.push.subscribe(amal, {"subscription": sub, "lang": "fr"})
                await env.push.choose(amal, {"kinds": ["challenge"]})
                assert [s.lang for s in await env.store.push.subscriptions(badr)] == ["ar"]

                async def code(who: str) -> dict[str, str]:
                    return {"code": (await env.friends.link(who, "http://site"))["code"]}

                to_badr = await env.challenges.make(amal, {"to": [await code(badr)]})
                to_carl = await env.challenges.make(amal, {"to": [await code(carl)]})
                await until(lambda: len(service.received) == 2)
                (ar,) = [phones["badr"].decrypt(r.body) for r in service.to("badr")]
                (en,) = [phones["carl"].decrypt(r.body) for r in service.to("carl")]
                assert ar == {
                    "kind": "challenge",
                    "title": "بصرة",
                    "body": "Amal يتحداك في لعبة",
                    "url": f"/?challenge={to_badr['id']}",
                    "tag": f"challenge:/?challenge={to_badr['id']}",
                    "lang": "ar",
                }
                assert (en["title"], en["body"], en["lang"]) == (
                    "Basra",
                    "Amal challenges you to a game",
                    "en",
                )
                assert en["url"] == f"/?challenge={to_carl['id']}"
                # Carl declines: the maker's answer is a challenge push too, in French.
                await env.challenges.answer(carl, to_carl["id"], "decline")
                await until(lambda: len(service.to("amal")) == 1)
                fr = phones["amal"].decrypt(service.to("amal")[0].body)
                assert (fr["kind"], fr["body"]) == ("challenge", "Carl a refusé votre défi")
                # The item in the list is the same words-free item the page words.
                item = (await env.notifications.listing(badr))["items"][0]
                assert item["kind"] == "challenge" and item["data"]["from"] == "Amal"
            finally:
                await env.close()

    asyncio.run(scenario())


def test_the_language_is_checked_posted_again_and_kept_when_the_browser_renews() -> None:
    async def scenario() -> None:
        env = await push_env(push_config())
        try:
            amal = await person(env)
            browser = Browser()
            sub = browser.subscription("https://push.example/a")
            for wrong in ("xx", 5, None, "EN"):
                with pytest.raises(ProtocolError) as refused:
                    await env.push.subscribe(amal, {**sub, "lang": wrong})
                assert (refused.value.extra or {})["field"] == "lang"
            await env.push.subscribe(amal, sub)  # none given: English
            assert [s.lang for s in await env.store.push.subscriptions(amal)] == ["en"]
            await env.push.subscribe(amal, {**sub, "lang": "ar"})  # posted again: Arabic
            assert [s.lang for s in await env.store.push.subscriptions(amal)] == ["ar"]
            fresh = Browser().subscription("https://push.example/b")
            await env.push.renew({"old": sub, "subscription": fresh})
            (kept,) = await env.store.push.subscriptions(amal)
            assert (kept.endpoint, kept.lang) == ("https://push.example/b", "ar")
            again = Browser().subscription("https://push.example/c")
            await env.push.renew({"old": fresh, "subscription": again, "lang": "el"})
            assert [s.lang for s in await env.store.push.subscriptions(amal)] == ["el"]
        finally:
            await env.close()

    asyncio.run(scenario())


def test_a_turn_at_a_turn_based_table_is_pushed_and_a_kind_not_chosen_is_not() -> None:
    from tests.web.test_service import spec
    from tests.web.test_turnbased import TWO_PEOPLE, config_on, move, seated

    from basra.server.table.clocks import FakeClock

    async def scenario() -> None:
        async with push_service() as service:
            config = AppConfig(service=config_on(FakeClock()), push=push_config())
            env = Env(config)
            await env.start(resume=False)
            try:
                amal = (await env.identities.create("test")).caller
                badr = (await env.identities.create("test")).caller
                phones = {amal.identity: Browser(), badr.identity: Browser()}
                for caller, name, lang in ((amal, "amal", "ar"), (badr, "badr", "en")):
                    sub = phones[caller.identity].subscription(service.endpoint(name))
                    await env.push.subscribe(caller.identity, {**sub, "lang": lang})
                # Amal chose your_turn; Badr chose challenges only: his turns are not pushed.
                await env.push.choose(amal.identity, {"kinds": ["your_turn"]})
                await env.push.choose(badr.identity, {"kinds": ["challenge"]})
                form = spec(seats=TWO_PEOPLE, clock={"days": 2})
                row = await env.lifecycle.create(amal, "test", "Amal", form)
                live, clients = await seated(env, row.id, [amal, badr])
                await env.messages.handle(clients[1], {"type": "join", "seat": 1})
                await until(lambda: live.state.phase == "play")
                for _ in range(4):
                    await move(env, live, clients)
                turns = await env.notifications.listing(amal.identity)
                theirs = await env.notifications.listing(badr.identity)
                mine = [i for i in turns["items"] if i["kind"] == "your_turn"]
                assert mine and [i for i in theirs["items"] if i["kind"] == "your_turn"]
                await until(lambda: len(service.to("amal")) == len(mine))
                for request in service.to("amal"):
                    shown = phones[amal.identity].decrypt(request.body)
                    assert shown["kind"] == "your_turn" and shown["url"] == f"/t/{row.id}"
                    assert shown["body"] == "حان دورك في لعبة بالأدوار"
                    assert request.headers["Urgency"] == "high"
                await asyncio.sleep(0.3)
                assert service.to("badr") == []  # listed, never pushed: not chosen
            finally:
                await env.close()

    asyncio.run(scenario())


def test_a_tournament_starting_soon_is_told_once_to_each_entrant_with_two_processes() -> None:
    from tests.web.helpers import file_store, sharing
    from tests.web.tourney import QUICK, SERVICE

    from basra.locales import message
    from basra.server.features.tournaments.runner import new_event_id
    from basra.server.features.tournaments.store import EntrantRow, TournamentRow
    from basra.server.runtime.pubsub import MemoryHub
    from basra.tournaments import Entrant, EventSettings, Member

    async def scenario() -> None:
        async with push_service() as service:
            store, hub = file_store(), MemoryHub()
            config = AppConfig(service=SERVICE, tournaments=QUICK, push=push_config())
            envs = [
                Env(config, store=store, hub=hub, origin="one"),
                Env(config, store=sharing(store), hub=hub.attach(), origin="two"),  # type: ignore[arg-type]
            ]
            for env in envs:
                await env.start(resume=False)
            try:
                amal, badr = await named(envs[0], "Amal"), await named(envs[1], "Badr")
                phone = Browser()
                sub = phone.subscription(service.endpoint("amal"))
                await envs[0].push.subscribe(amal, {**sub, "lang": "ar"})
                await envs[0].push.choose(amal, {"kinds": ["tournament_soon"]})
                now = time.time()
                settings = EventSettings.from_json(
                    {"format": "arena", "minutes": 5, "bots": True, "rules": {"target": 1}}
                )
                people = ((amal, "Amal"), (badr, "Badr"))
                entrants = [
                    EntrantRow(
                        f"e{i}",
                        i,
                        Entrant(f"e{i}", n, (Member("person", w, n),), 20.0).to_json(),
                        now,
                    )
                    for i, (w, n) in enumerate(people)
                ]
                # Four minutes to its start (the entrants are told within the last five).
                starts = now + 240
                row = TournamentRow(
                    new_event_id(), "Friday Cup", settings.to_json(), "created", starts, now
                )
                row = replace(row, ends_at=starts + 300)
                claims = [(f"person:{w}", f"e{i}") for i, (w, _) in enumerate(people)]
                await store.tournaments.create(row, entrants, claims)
                # Another in ten minutes: nobody is told of it yet.
                later = replace(row, id=new_event_id(), starts_at=now + 600, ends_at=now + 900)
                await store.tournaments.create(later, entrants, claims)

                async def soon(who: str) -> list[dict[str, Any]]:
                    items = (await envs[1].notifications.listing(who))["items"]
                    return [i for i in items if i["kind"] == "tournament_soon"]

                deadline = time.monotonic() + 10
                while not (await soon(amal) and await soon(badr)):
                    assert time.monotonic() < deadline, "the entrants were not told"
                    await asyncio.sleep(0.05)
                await asyncio.sleep(1.0)  # ten more passes of the clock, by either process
                # Both processes pass again as if each had just taken the lease over,
                # knowing nobody told: the stored items' keys keep it once.
                for env in envs:
                    env.tournaments.runner._told.clear()
                    await env.tournaments.runner.step_event(row, time.time())
                for who in (amal, badr):
                    (item,) = await soon(who)
                    assert item["url"] == f"/tournaments/{row.id}"
                    assert item["data"] == {
                        "tournament": row.id,
                        "name": "Friday Cup",
                        "minutes": 4,
                    }
                assert sum(e.tournaments.runner.passes for e in envs) > 5
                # Amal's phone had it once, in Arabic.
                await until(lambda: len(service.to("amal")) == 1)
                await asyncio.sleep(0.3)
                (request,) = service.to("amal")
                shown = phone.decrypt(request.body)
                assert shown["kind"] == "tournament_soon" and shown["lang"] == "ar"
                words = message("ar", "note_tournament_soon", name="Friday Cup", minutes=4)
                assert shown["body"] == words == "تبدأ Friday Cup بعد ٤ دقائق"
                assert shown["url"] == f"/tournaments/{row.id}"
            finally:
                for env in envs:
                    await env.close()

    asyncio.run(scenario())


def test_every_kind_of_the_list_is_worded_in_every_language_and_pushed_as_a_push_kind() -> None:
    from basra.locales import languages
    from basra.server.features import notifications
    from basra.server.features.notifications import note_text
    from basra.server.features.push import FROM_LIST

    assert set(FROM_LIST) <= set(notifications.KINDS)
    assert set(FROM_LIST.values()) <= set(KINDS)
    facts = {
        "from": "Amal",
        "by": "Badr",
        "name": "Friday Cup",
        "club": "Café Basra",
        "minutes": 5,
        "table": "t1",
    }
    for lang in languages():
        seen = set()
        for kind in notifications.KINDS:
            text = note_text(lang, kind, facts)
            assert text and "{" not in text and "}" not in text, (lang, kind, text)
            seen.add(text)
        assert len(seen) == len(notifications.KINDS), lang  # each kind its own words
    # A name missing is a guest, in the reader's language; a kind unknown is "something new".
    assert note_text("en", "challenge", {}) == "guest challenges you to a game"
    assert note_text("en", "season_end", {}) == "Something new happened"
    assert note_text("ar", "challenge_declined", {"from": "Amal", "by": "Badr"}) == "رفض Badr تحديك"
