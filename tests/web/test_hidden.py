"""No frame sent to a seat ever holds a card that seat could not see.

Full games are played over real sockets (people, bots, a spectator); every
frame each connection received is then checked against the game rebuilt from
its record, at the version the frame was sent for.
"""

from __future__ import annotations

import json
from typing import Any

from tests.web.helpers import (
    CARD,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    next_mover,
    play_to_end,
)

from basra.cards import CARD_NAMES, cards_of
from basra.record import Record
from basra.state import GameState
from basra.view import public_view_of, view_of


def states_by_version(record: dict[str, Any]) -> list[GameState]:
    """The game after each event: index v is the state at table version v."""
    parsed = Record.from_json(record)
    state = parsed.new_state()
    out = [state.copy()]
    for rnd in parsed.rounds:
        state.deal(rnd.pack)
        out.append(state.copy())
        for text in rnd.plays:
            from basra.notation import parse_move

            state.push(parse_move(state, text))
            out.append(state.copy())
    return out


def unseen(state: GameState, seat: int | None) -> set[str]:
    """Cards in other hands (unless publicly known) and in the stock (unless re-buried)."""
    hidden = 0
    for other in range(state.players):
        if other == seat:
            continue
        known = (
            view_of(state, seat).known[other]
            if seat is not None
            else view_of(state, (other + 1) % state.players).known[other]
        )
        hidden |= state.hands[other] & ~known
    bottom = set(view_of(state, 0).stock_bottom)
    for card in state.stock[state.stock_pos :]:
        if card not in bottom:
            hidden |= 1 << card
    return {CARD_NAMES[c] for c in cards_of(hidden)}


def check_frames(player: Player, states: list[GameState], seat: int | None) -> int:
    version = 0
    checked = 0
    for frame in player.frames:
        message = json.loads(frame)
        # Rule settings name cards (point cards, buried ranks) without dealing them.
        if message["type"] == "state":
            version = message["version"]
            message["view"].pop("rules", None)
        elif message["type"] == "table":
            del message["table"]["rules"], message["table"]["overrides"]
        found = {rank + suit for rank, suit in CARD.findall(json.dumps(message))}
        leaked = found & unseen(states[version], seat)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {version}: {frame}"
        checked += 1
    return checked


def test_no_frame_shows_a_seat_a_card_it_could_not_see(server: ServerThread) -> None:
    checked = 0
    setups: list[dict[str, Any]] = [
        {"variant": "egyptian", "seats": [{"kind": "person"}] * 2},
        {
            "variant": "palestinian",
            "players": 3,
            "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        },
        {
            "variant": "lebanese",
            "players": 4,
            "teams": True,
            "rules": {"target": 60},
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "medium"}] * 2,
        },
    ]
    for form in setups:
        token = new_token(server.url)
        table = create_table(server.url, token, hints=True, **form)
        people = [Player(server.url, table, token, "P0")]
        for seat, spec in enumerate(form["seats"]):
            if seat and spec["kind"] == "person":
                joiner = Player(server.url, table, None, f"P{seat}")
                joiner.wait_type("state")
                joiner.send({"type": "join", "seat": seat})
                joiner.wait(lambda m: m["type"] == "table" and m["table"]["you"] is not None)
                people.append(joiner)
        watcher = Player(server.url, table, None, "Watcher", watch_only=True)
        # Hints are frames too: the first person to move asks for one.
        first = next_mover(people)
        assert first is not None
        first.send({"type": "hint", "version": first.version})
        first.wait_type("hint")
        play_to_end([*people, watcher])
        watcher.drain()
        status, record = http(f"{server.url}/api/games/{table}/record")
        assert status == 200
        states = states_by_version(record)
        for person in people:
            person.drain()
            checked += check_frames(person, states, person.table["you"])
        checked += check_frames(watcher, states, None)
        assert_public(watcher, states)
    assert checked > 500


OUTCOME = ("sides", "winner", "over", "autos")
"""What a snapshot adds to the view: the outcome, and which plays the server made for
people (public: the table shows everyone who is away)."""


def assert_public(watcher: Player, states: list[GameState]) -> None:
    """A spectator's snapshots are the table's public view, exactly (plus the outcome and
    the plays made for people)."""
    seen = 0
    for frame in watcher.frames:
        message = json.loads(frame)
        if message["type"] != "state":
            continue
        view = {k: v for k, v in message["view"].items() if k not in OUTCOME}
        assert view == public_view_of(states[message["version"]]).to_json(brief=True)
        seen += 1
    assert seen > 20
