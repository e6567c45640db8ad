"""Every bad input gets a clear error and changes nothing (and never drops or stalls the server)."""

from __future__ import annotations

import base64
import json
import logging
import os
import select
import socket
import urllib.error
import urllib.request
from typing import Any

import pytest
from tests.web.helpers import Player, ServerThread, create_table, http, new_token
from websockets.sync.client import ClientConnection, connect

from basra.server.transport import logs
from basra.server.transport.deps import MAX_BODY
from basra.server.transport.messages import MAX_DEPTH

ONE_BOT = {"seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}


def raw_socket(base: str, table: str) -> ClientConnection:
    return connect(base.replace("http", "ws") + f"/ws/{table}", proxy=None, legacy=True)


def closing_error(ws: ClientConnection) -> tuple[dict[str, Any], int | None]:
    """The error a refused connection is sent, and the code it is closed with."""
    error = json.loads(ws.recv(timeout=10))
    with pytest.raises(Exception):  # noqa: B017 - the server closes it
        ws.recv(timeout=10)
    return error, ws.close_code


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("first", "code"),
    [
        (b"\x00\x01binary", "bad_message"),
        (nested(MAX_DEPTH + 1), "too_deep"),
        (nested(2000), "too_deep"),  # deeper than the JSON parser itself goes
        ('{"type": "hello", "token": ' + nested(MAX_DEPTH) + "}", "too_deep"),
        ("{" * 5000, "too_large"),
        ('{"type": "move", "move": "7S", "version": 0}', "bad_message"),
        ('{"type": "hello", "token": 7}', "bad_message"),
    ],
)
def test_a_bad_first_message_is_answered_and_the_connection_closed(
    server: ServerThread, first: str | bytes, code: str
) -> None:
    token = new_token(server.url)
    table = create_table(server.url, token, "Amal", **ONE_BOT)
    ws = raw_socket(server.url, table)
    ws.send(first)
    error, close_code = closing_error(ws)
    assert error["type"] == "error" and error["code"] == code, error
    assert close_code == 4000
    # The server goes on serving that table as before.
    amal = Player(server.url, table, token)
    assert amal.wait_type("state")["version"] >= 0


def test_bad_messages_after_hello_are_answered_and_change_nothing(server: ServerThread) -> None:
    token = new_token(server.url)
    table = create_table(server.url, token, "Amal", **ONE_BOT)
    amal = Player(server.url, table, token)
    amal.wait(lambda m: m["type"] == "state" and amal.my_turn())
    version = amal.version
    for message, code in (
        (nested(2000), "too_deep"),
        ('{"type": "move", "move": "7S", "version": ' + nested(9) + "}", "too_deep"),
        (b"\xff\xfe", "bad_message"),
        ('{"type": "join", "seat": 1.5}', "bad_message"),
    ):
        amal.ws.send(message)
        assert amal.wait_type("error")["code"] == code
    amal.drain()
    assert amal.version == version
    amal.play_first_legal()
    amal.wait(lambda m: m["type"] == "state" and m["version"] > version)


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"variant": []}, "variant"),
        ({"variant": {"x": 1}}, "variant"),
        ({"players": "2"}, "players"),
        ({"players": True}, "players"),
        ({"teams": 1}, "teams"),
        ({"hints": "yes"}, "hints"),
        ({"rules": []}, "rules"),
        ({"seats": [{"kind": "person"}, {"kind": "bot", "level": {"x": 1}}]}, "seats.1.level"),
        ({"seats": [{"kind": "person"}, {"kind": "robot"}]}, "seats.1.kind"),
        ({"seats": {"kind": "person"}}, "seats"),
        ({"my_seat": "0"}, "my_seat"),
        ({"name": 7}, "name"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_wrong_json_types_in_the_table_form_are_422_naming_the_field(
    server: ServerThread, form: dict[str, Any], field: str
) -> None:
    token = new_token(server.url)
    before = http(server.url + "/api/tables")[1]["tables"]
    status, body = http(server.url + "/api/tables", {"name": "Amal", **form}, token=token)
    assert status == 422, body
    assert body["error"] == "bad_request" and body["field"] == field, body
    assert body["message"].startswith(field)
    assert http(server.url + "/api/tables")[1]["tables"] == before


def test_bad_json_bodies_are_refused(server: ServerThread) -> None:
    token = new_token(server.url)
    for body, code in ((b"{not json", "bad_message"), (nested(40).encode(), "too_deep")):
        request = http_request(server.url, "/api/tables", body, token)
        assert request[0] == 400 and request[1]["error"] == code


def http_request(base: str, path: str, body: bytes, token: str) -> tuple[int, Any]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        base + path,
        data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_body_over_the_limit_is_refused_while_it_streams(server: ServerThread) -> None:
    token = new_token(server.url)
    port = int(server.url.rsplit(":", 1)[1])
    # Announced too large: refused before any of it is sent.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {token}\r\n".encode()
            + f"Content-Length: {100 * MAX_BODY}\r\n\r\n".encode()
        )
        assert b" 413 " in sock.recv(4096).split(b"\r\n")[0]
    # Streamed in chunks with no length: refused once past the limit, not read to the end.
    chunk = b"x" * 1024
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {token}\r\n".encode()
            + b"Transfer-Encoding: chunked\r\n\r\n"
        )
        while sent < 1000 * MAX_BODY:
            try:
                sock.sendall(b"400\r\n" + chunk + b"\r\n")
            except OSError:
                break
            sent += len(chunk)
            if select.select([sock], [], [], 0.01)[0]:
                answer = sock.recv(4096)
                break
        if not answer:
            answer = sock.recv(4096)
    assert b" 413 " in answer.split(b"\r\n")[0], answer
    assert sent < 8 * MAX_BODY, f"{sent} bytes went in before the refusal"
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["error"] == "too_large" and str(MAX_BODY) in body["message"]


@pytest.fixture
def throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's throttle as a fresh process has it (other tests logged lines meanwhile)."""
    monkeypatch.setattr(logs, "THROTTLE", logs.Throttle())


@pytest.mark.usefixtures("throttle")
def test_a_client_that_writes_its_whole_body_first_reads_the_413(
    server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    """urllib writes the whole body, then reads, and asks the server to close after the
    answer: the 413 must still be there to read (not a reset), and logged once."""
    token = new_token(server.url)
    body = b'{"name": "' + b"a" * (8 << 20) + b'"}'
    with caplog.at_level(logging.WARNING, logger="basra.server.transport"):
        for _ in range(3):
            request = urllib.request.Request(
                server.url + "/api/tables",
                data=body,
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)
            assert refused.value.code == 413
            assert json.loads(refused.value.read())["error"] == "too_large"
    lines = [r for r in caplog.records if "request body" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]


class Records(logging.Handler):
    """Keeps the records a logger lets through."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.usefixtures("throttle")
def test_frames_that_are_not_utf8_are_one_line_without_traceback(
    server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    """uvicorn closes the connection (1007) and logs a traceback for each such frame; the
    server turns that into one throttled line."""
    port = int(server.url.rsplit(":", 1)[1])
    uvicorn_log = Records()
    logging.getLogger("uvicorn.error").addHandler(uvicorn_log)
    try:
        with caplog.at_level(logging.WARNING, logger="basra.server.transport"):
            for _ in range(5):
                with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                    sock.sendall(
                        b"GET /ws/play HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        b"Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)) + b"\r\n\r\n"
                    )
                    assert b" 101 " in sock.recv(4096).split(b"\r\n")[0]
                    payload = b'\xff\xfe{"type": "hello"}'
                    mask = os.urandom(4)
                    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
                    closing = sock.recv(4096)
                    assert closing[:1] == b"\x88" and closing[2:4] == (1007).to_bytes(2, "big")
    finally:
        logging.getLogger("uvicorn.error").removeHandler(uvicorn_log)
    assert not any(r.exc_info for r in uvicorn_log.records), "a traceback was logged"
    lines = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
