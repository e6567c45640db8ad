"""Every GET route, attempt answer and socket frame, scanned for hidden cards (issue 30).

With a daily deal's attempt half played, a duplicate board half played, a private
table played to its end and a public table not finished, a newcomer (and someone not
signed in) asks every GET route of the app (enumerated from ``app.routes``: a route
added later is asked too, or this test says which parameter it lacks), asks for each
game's review, tries puzzles, and opens every socket kind. Nothing they get holds a
card of the hidden tables, nor a card of the public table they could not see from its
seats' public view (its hands, its stock), in any route's answer or any frame.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import Coroutine, Iterator
from contextlib import suppress
from typing import Any

from fastapi.routing import APIWebSocketRoute
from starlette.routing import BaseRoute, Route
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    cards_in,
    create_table,
    http,
    new_token,
    play_to_end,
)
from tests.web.test_hidden import unseen
from tests.web.test_learn import SHIPPED
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from basra.cards import CARD_NAMES
from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.tournaments.tables import Owner
from basra.server.store.rows import SeatKind, SeatRow
from basra.server.table.admission import Budget
from basra.server.table.forms import TableSpec
from basra.state import GameState

EVERY_CARD = set(CARD_NAMES)
PARAM = re.compile(r"{(\w+)(?::\w+)?}")
STATIC = {
    "/api/lessons/{variant}": "the lessons' fixed positions (the same for everyone)",
    "/api/puzzles/next": "a practice puzzle (checked below: shipped, not of these games)",
    "/api/puzzles/daily": "a practice puzzle (checked below: shipped, not of these games)",
    "/api/puzzles/{puzzle_id}": "a practice puzzle (checked below: shipped)",
}
"""Routes whose cards are fixed content, not any table's: scanned for table ids only."""


def walk(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from walk(included.routes)
        else:
            yield route


def fetch(url: str, token: str | None, method: str = "GET") -> tuple[int, str, str]:
    """Status, content type and text of any answer (JSON or not)."""
    request = urllib.request.Request(url, method=method)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            kind = response.headers.get("content-type", "")
            return response.status, kind, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        kind = error.headers.get("content-type", "")
        return error.code, kind, error.read().decode("utf-8", "replace")


class Server:
    """The running server's environment, reached on its own loop."""

    def __init__(self, running: ServerThread) -> None:
        self.running = running
        self.env: Env = running.app.state.env
        self.loop = running.server.servers[0].get_loop()

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def state(self, table_id: str) -> GameState:
        async def read() -> GameState:
            live = await self.env.master.get(table_id)
            assert live is not None
            return live.state.copy()

        result: GameState = self.run(read())
        return result


def hidden_table(
    server: Server, token: str, *, private: bool, owner: str | None = None, target: int = 61
) -> str:
    """A table the server makes hidden (a board's, a private one): the token's identity
    in seat 0 against an ``easy`` bot; its id."""
    env = server.env

    async def make() -> str:
        caller = await env.identities.authenticate(token)
        assert caller is not None
        seats = {0: SeatRow(0, SeatKind.PERSON, None, caller.identity, "Badr")}
        spec = TableSpec(
            "egyptian",
            {"target": target},
            2,
            False,
            False,
            ((SeatKind.PERSON, None), (SeatKind.BOT, "easy")),
            None,
        )
        row = env.lifecycle.plan(spec, seats, None, None, owner=owner, private=private)
        assert row.hidden
        await env.lifecycle.add(row, Budget(paired=True))
        return row.id

    table_id: str = server.run(make())
    return table_id


def play_some(player: Player, moves: int) -> None:
    """Play ``moves`` of the player's moves (the bot answers between)."""
    for _ in range(moves):
        while not player.my_turn():
            player.recv(20)
        version = player.version
        player.play_first_legal()
        while player.version <= version:
            player.recv(20)
    player.drain(0.2)


def test_no_route_answer_or_frame_shows_a_hidden_card(tmp_path: Any) -> None:
    config = AppConfig(database=str(tmp_path / "leaks.db"), service=FAST)
    with ServerThread(config) as running:
        site = running.url
        server = Server(running)
        amal, badr = new_token(site), new_token(site)
        # A daily deal's attempt, half played.
        deal = http(site + "/api/daily", token=amal)[1]["deals"][0]["id"]
        status, started = http(f"{site}/api/daily/{deal}", {"name": "Amal"}, token=amal)
        assert status == 201
        daily = started["table"]
        at_daily = Player(site, daily, amal, "Amal")
        at_daily.wait_type("state")
        play_some(at_daily, 2)
        # A duplicate board half played (round 1 of event e1, still played elsewhere).
        board = hidden_table(server, badr, private=True, owner=Owner("e1", 1, 0, 0).key)
        at_board = Player(site, board, badr, "Badr")
        at_board.wait_type("state")
        play_some(at_board, 2)
        # A private table, played to its end.
        private = hidden_table(server, badr, private=True, target=1)
        at_private = Player(site, private, badr, "Badr")
        play_to_end([at_private])
        # A public table, unfinished: a newcomer watches it while it is played.
        public = create_table(
            site, amal, variant="egyptian", seats=[{"kind": "person"}, {"kind": "bot"}]
        )
        at_public = Player(site, public, amal, "Amal")
        at_public.wait_type("state")
        carl = new_token(site)
        watcher = Player(site, public, carl, "Carl")
        watcher.wait_type("state")
        play_some(at_public, 3)
        watcher.drain(0.3)
        hidden = {"daily": daily, "board": board, "private": private}
        tables = {**hidden, "public": public}
        # What each may see: nothing of the hidden tables, the public view of the other.
        secret = dict.fromkeys(hidden, EVERY_CARD)
        secret["public"] = unseen(server.state(public), None)
        assert secret["public"]
        everything_hidden = set().union(*secret.values())
        values = {
            "deal_id": [deal],
            "event_id": ["e1"],
            "username": ["amal", "x"],
            "variant": ["egyptian"],
            "puzzle_id": [next(iter(SHIPPED)), "x"],
            "name": ["x"],
            "version": ["x"],
            "game_id": ["x"],
            "path": ["x"],
            "slug": ["x"],  # a club's (features/clubs)
            "challenge_id": ["x"],  # features/challenges
            "family": ["egyptian"],  # a season's (features/seasons)
            "season": ["1", "x"],
        }
        asked = 0
        for route in walk(running.app.routes):
            if not isinstance(route, Route) or "GET" not in (route.methods or ()):
                continue
            params = PARAM.findall(route.path)
            if "table_id" in params:
                choices: list[tuple[str, dict[str, str]]] = [
                    (name, {"table_id": table}) for name, table in tables.items()
                ]
            else:
                choices = [("", {})]
            for param in params:
                if param == "table_id":
                    continue
                assert param in values, f"the leak test has no value for {route.path}"
                choices = [
                    (name, {**filled, param: value})
                    for name, filled in choices
                    for value in values[param]
                ]
            for name, filled in choices:
                path = PARAM.sub(lambda m, f=filled: f[m.group(1)], route.path)  # type: ignore[misc]
                for token in (carl, None):
                    status, kind, text = fetch(site + path, token)
                    asked += 1
                    where = f"GET {path} ({'carl' if token else 'nobody'}): {status}"
                    for other, table in hidden.items():
                        if other != name:  # its own id is in its own address
                            assert table not in text or route.path in ("/api/tables",), where
                    if "json" not in kind:
                        continue  # the page, scripts, files: the same for everyone
                    if route.path in STATIC:
                        continue
                    leaked = cards_in(text) & (secret[name] if name else everything_hidden)
                    assert not leaked, f"{where} showed {sorted(leaked)}: {text[:300]}"
        assert asked > 100
        # The reviews, and tries at every puzzle a newcomer is served.
        for name, table in tables.items():
            for token in (carl, None):
                status, _, text = fetch(f"{site}/api/games/{table}/review", token, "POST")
                assert status in (401, 403, 409), (name, status, text)
                assert not cards_in(text) & secret[name], (name, text)
        for path in ("/api/puzzles/next", "/api/puzzles/daily"):
            served = http(site + path, token=carl)[1]
            puzzle = SHIPPED[served["puzzle"]["id"]]  # practice: no game of this server
            status, tried = http(
                f"{site}/api/puzzles/{puzzle.id}/attempt", {"move": puzzle.answer}, token=carl
            )
            assert status == 200 and not tried["rated"]
            text = json.dumps(tried)
            assert not any(table in text for table in tables.values())
            assert not {"record", "source", "table"} & set(tried["solution"])
        # Every socket: the hidden tables refuse to be watched; the tournament's, quick
        # play's and the bots' show nothing of them; the public table's frames (watched
        # as it was played) show only its public view.
        frames: dict[str, list[str]] = {"public": watcher.frames}
        for name, table in hidden.items():
            for token in (carl, None):
                spy = Player(site, table, token, "Carl", watch_only=token is None)
                assert spy.wait_type("error")["code"] == "private_table"
                with suppress(ConnectionClosed):
                    spy.drain(0.1)
                frames.setdefault(name, []).extend(spy.frames)
                spy.close()
        for route in walk(running.app.routes):
            if isinstance(route, APIWebSocketRoute) and "{table_id}" not in route.path:
                path = route.path.replace("{event_id}", "e1")
                with connect(
                    site.replace("http", "ws") + path, open_timeout=10, proxy=None
                ) as socket:
                    socket.send(json.dumps({"type": "hello", "token": carl}))
                    got: list[str] = []
                    with suppress(TimeoutError, ConnectionClosed):
                        while True:
                            got.append(str(socket.recv(timeout=0.5)))
                    frames.setdefault("", []).extend(got)
        seen_kinds: set[str] = set()
        for name, texts in frames.items():
            for text in texts:
                message = json.loads(text)
                seen_kinds.add(message.get("type", "?"))
                leaked = cards_in(text) & (secret[name] if name else everything_hidden)
                assert not leaked, f"a {message.get('type')} frame showed {sorted(leaked)}"
        assert {"table", "state", "error"} <= seen_kinds, seen_kinds
        for player in (at_daily, at_board, at_private, at_public, watcher):
            player.close()
