"""The offline table: a game played in the page, on the server's own engine, under Pyodide.

Part of the core (standard library only): the page's Web Worker runs it in
WebAssembly CPython, from the zip of the core's sources the server serves
(:mod:`basra.server.features.offline`). It plays through
:class:`basra.session.Session` (the table of people and bots at one device that
the terminal plays through too: seeded deals and bots, saving and resuming),
the bots and the coach, so no rule is written again for the page: the page
asks, this module answers with the same messages a server's socket sends
(``table``, ``state``, ``hint``, ``error``; :mod:`basra.server.table.frames`),
and the table component draws them as it draws an online table.

The worker calls :func:`handle` with one JSON request and gets one JSON answer::

    {"op": "hello"}                         -> the engine, the presets, the levels
    {"op": "rules", "variant", "rules"}     -> the checked rules, or bad_settings
    {"op": "new", "id", "variant", "rules", "players", "teams", "hints",
     "seats": ["person", "medium"], "names": ["Amal", null], "seed"?}
    {"op": "open", "save": {...}}           -> resume a saved game
    {"op": "frames", "viewer": 0}           -> {"table": ..., "state": ...} for that seat
    {"op": "next"}                          -> one automatic event (a deal, a bot's play)
    {"op": "move", "seat", "move", "version"}
    {"op": "hint", "seat", "version"}
    {"op": "rematch", "id"}                 -> a new game at the same table (next seed)
    {"op": "conformance", "positions", "games"}   (tests)
    {"op": "bench", ...}                    (benchmarks/offline.py)

Every answer is ``{"ok": true, ...}`` or ``{"ok": false, "error": code,
"message": ...}``. A game's *save* is its record (RECORD.md) with the play
settings of :class:`~basra.session.Session` (``basra_play``: seats and
seed, so deals and bots continue exactly after a reload) and this table's own
(``basra_offline``: its id, hints, when it started): ``basra replay`` and
``basra play --resume`` read the file the page downloads.

>>> answer = call({"op": "new", "id": "g1", "seats": ["person", "easy"], "names": ["Amal", None],
...                "seed": 3})
>>> answer["summary"]["status"], answer["summary"]["names"]
('playing', ['Amal', 'Bot 2 (easy)'])
>>> call({"op": "next"})["event"]["kind"]
'deal'
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Mapping
from typing import Any

from basra.bench import api_rounds, measure
from basra.bot_names import bot_name as numbered_bot_name
from basra.bot_names import bot_number
from basra.bots import LEVELS, make_bot
from basra.cards import CARD_NAMES
from basra.kernel import describe
from basra.moves import Play
from basra.notation import (
    MoveTextError,
    move_error_details,
    parse_move,
)
from basra.query import capture_query
from basra.record import Record, RecordError, result_json
from basra.rules import PRESETS, SETTING_NAMES, VARIANT_DESCRIPTIONS, RulesError, preset
from basra.session import PERSON, Session, SessionError
from basra.state import PHASE_DEAL, PHASE_PLAY, GameError, GameState, shuffled_pack
from basra.view import public_view_of, view_of

__all__ = [
    "OFFLINE_FORMAT",
    "OFFLINE_KEY",
    "OFFLINE_LEVELS",
    "EngineError",
    "OfflineTable",
    "call",
    "handle",
]

OFFLINE_FORMAT = "basra-offline/1"
OFFLINE_KEY = "basra_offline"
"""The top-level key of a save that holds this table's own settings."""
OFFLINE_LEVELS = ("easy", "medium", "hard")
"""The bot levels offline: ``expert`` searches in the compiled kernel, which the page lacks."""
MAX_ID = 64


class EngineError(Exception):
    """A refused request: a stable ``code`` (the page translates it) and a message."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def bot_name(seat: int, level: str) -> str:
    """A bot's name in records, as the server writes it: ``Bot 2 (hard)`` (counted by
    its seat, :mod:`basra.bot_names`)."""
    return numbered_bot_name(seat + 1, level)


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise EngineError("bad_request", f"'{key}' must be text")
    return value.strip()


def _whole(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise EngineError("bad_request", f"'{key}' must be a whole number, not {value!r}")
    return value


class OfflineTable:
    """One offline game: a :class:`Session` and the messages the page draws from it."""

    def __init__(self, session: Session, game_id: str, hints: bool, created_at: float) -> None:
        self.session = session
        self.id = game_id
        self.hints = hints
        self.created_at = created_at
        self.updated_at = created_at

    # ----------------------------------------------------------- construction

    @classmethod
    def new(cls, data: Mapping[str, Any]) -> OfflineTable:
        """A new game from the page's settings, before its first deal."""
        game_id = _text(data, "id")[:MAX_ID]
        variant = _text(data, "variant", "egyptian")
        overrides = data.get("rules") or {}
        if not isinstance(overrides, Mapping):
            raise EngineError("bad_settings", "'rules' must be an object of settings")
        seats = data.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
            raise EngineError("bad_request", "'seats' must list 2 to 4 seats")
        for kind in seats:
            if kind != PERSON and kind not in OFFLINE_LEVELS:
                raise EngineError(
                    "bad_seat",
                    f"a seat is 'person' or a bot level ({', '.join(OFFLINE_LEVELS)}), "
                    f"not {kind!r}",
                )
        if PERSON not in seats:
            raise EngineError("bad_seat", "someone has to play: make one seat a person")
        given = data.get("names") or [None] * len(seats)
        if not isinstance(given, list) or len(given) != len(seats):
            raise EngineError("bad_request", "'names' must give a name (or null) for each seat")
        names = []
        for seat, (kind, name) in enumerate(zip(seats, given, strict=True)):
            if kind != PERSON:
                names.append(bot_name(seat, kind))
            elif isinstance(name, str) and name.strip():
                names.append(" ".join(name.split())[:24])
            else:
                names.append(f"Player {seat + 1}")
        if len(set(names)) != len(names):
            raise EngineError("bad_name", "give every person at the table a different name")
        teams = data.get("teams", False) is True
        seed = data.get("seed")
        if seed is not None and type(seed) is not int:
            raise EngineError("bad_request", "'seed' must be a whole number")
        try:
            session = Session.new(
                variant,
                dict(overrides),
                players=len(seats),
                teams=teams,
                seats=seats,
                names=names,
                seed=seed,
            )
        except (SessionError, RulesError, GameError) as exc:
            raise EngineError("bad_settings", str(exc)) from None
        return cls(session, game_id, data.get("hints", True) is not False, time.time())

    @classmethod
    def open(cls, save: Mapping[str, Any]) -> OfflineTable:
        """A saved game (:meth:`save`), to play on from where it stopped."""
        if not isinstance(save, Mapping):
            raise EngineError("bad_save", "a saved game is a JSON object")
        own = save.get(OFFLINE_KEY)
        if not isinstance(own, Mapping) or own.get("format") != OFFLINE_FORMAT:
            raise EngineError("bad_save", f"not a game saved by the offline table ({OFFLINE_KEY})")
        try:
            session = Session.from_json(save)
        except (RecordError, SessionError) as exc:
            raise EngineError("bad_save", f"not a game that can be resumed: {exc}") from None
        for kind in (seat.kind for seat in session.seats):
            if kind != PERSON and kind not in OFFLINE_LEVELS:
                raise EngineError("bad_save", f"the seat kind {kind!r} does not play offline")
        created = own.get("created_at")
        table = cls(
            session,
            _text(own, "id")[:MAX_ID],
            own.get("hints", True) is not False,
            float(created) if isinstance(created, int | float) else time.time(),
        )
        updated = own.get("updated_at")
        table.updated_at = float(updated) if isinstance(updated, int | float) else table.created_at
        return table

    def rematch(self, game_id: str) -> OfflineTable:
        """The same table again: same seats, names and rules, the next seed."""
        return OfflineTable(self.session.again(), game_id[:MAX_ID], self.hints, time.time())

    # ------------------------------------------------------------------ state

    @property
    def state(self) -> GameState:
        """The game being played."""
        return self.session.state

    @property
    def version(self) -> int:
        """The events so far (deals and plays), as a server counts a table's versions."""
        state = self.state
        return len(state.rounds) + sum(len(log.plays) for log in state.rounds)

    @property
    def people(self) -> list[int]:
        """The seats people play at this device, in seat order."""
        return self.session.people

    def pending(self) -> bool:
        """True when the next event is automatic: a deal, or a bot's play."""
        state = self.state
        if state.is_over:
            return False
        return state.phase == PHASE_DEAL or self.session.is_bot_turn()

    def summary(self) -> dict[str, Any]:
        """What "My games" lists of this game, computed here (never in the page)."""
        state = self.state
        outcome = state.outcome()
        seats = self.session.seats
        return {
            "id": self.id,
            "offline": True,
            "variant": state.variant,
            "rules": state.rules.overrides_from(preset(state.variant)),
            "players": state.players,
            "teams": state.teams,
            "names": self.session.names,
            "kinds": ["person" if s.is_person else "bot" for s in seats],
            "levels": [s.level for s in seats],
            "people": self.people,
            "seat": self.people[0],
            "status": "over" if outcome is not None else "playing",
            "scores": list(state.scores),
            "winner": outcome.winner if outcome is not None else None,
            "version": self.version,
            "round": state.round_index,
            "turn": state.turn if state.phase == PHASE_PLAY else None,
            "pending": self.pending(),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }

    def save(self) -> dict[str, Any]:
        """The game as a record (RECORD.md) plus what resuming it needs."""
        data = self.session.to_json()
        data[OFFLINE_KEY] = {
            "format": OFFLINE_FORMAT,
            "id": self.id,
            "hints": self.hints,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }
        return data

    # --------------------------------------------------------------- messages

    def table_message(self, viewer: int | None) -> dict[str, Any]:
        """The ``table`` message a server sends (the master's table_json: the row and the live
        fields)."""
        state = self.state
        outcome = state.outcome()
        overrides = state.rules.overrides_from(preset(state.variant))
        seats = []
        for index, seat in enumerate(self.session.seats):
            entry: dict[str, Any] = {
                "seat": index,
                "kind": "person" if seat.is_person else "bot",
                "level": seat.level,
                "name": seat.name if seat.is_person else None,
                "open": False,
                "forfeited": False,
            }
            if seat.is_person:
                entry["present"] = True
                entry["stand_in"] = False
            else:
                entry["number"] = bot_number(None, index)
            seats.append(entry)
        table = {
            # No server id: the table's review and replay links are the server's (after an
            # upload, "My games" links the server's copy).
            "id": None,
            "game": self.id,
            "variant": state.variant,
            "rules": state.rules.to_dict(),
            "overrides": overrides,
            "players": state.players,
            "teams": state.teams,
            "hints": self.hints,
            "status": "over" if outcome is not None else "playing",
            "scores": list(state.scores),
            "winner": outcome.winner if outcome is not None else None,
            "rematch": None,
            "rematch_of": None,
            "fault": False,
            "seats": seats,
            "you": viewer,
            "spectators": 0,
            "version": self.version,
            "rated": False,
            "daily": False,
            "clock": None,
            "offline": True,
            "people": self.people,
        }
        return {"type": "table", "table": table}

    def last_event(self) -> dict[str, Any] | None:
        """The last event, as :func:`basra.server.table.reducer.describe` describes it."""
        state = self.state
        if not state.rounds:
            return None
        log = state.rounds[-1]
        if not log.plays:
            return {"kind": "deal", "round": state.round_index}
        play: Play = log.plays[-1]
        return {
            "kind": "play",
            "round": state.round_index,
            "seat": play.seat,
            "move": play.move.text(),
            "basra": play.basra,
        }

    def state_message(self, viewer: int | None) -> dict[str, Any]:
        """The ``state`` message a server sends that seat (the fields of
        :func:`basra.server.table.frames.state_frame`)."""
        state = self.state
        view = view_of(state, viewer) if viewer is not None else public_view_of(state)
        data = view.to_json(brief=True)
        outcome = state.outcome()
        data["sides"] = [list(side) for side in state.sides]
        data["winner"] = outcome.winner if outcome is not None else None
        data["over"] = outcome is not None
        data["autos"] = {}  # the plays the server made for a person: none at this device
        return {"type": "state", "version": self.version, "view": data, "event": self.last_event()}

    def frames(self, viewer: int | None) -> dict[str, Any]:
        """Both messages for a seat (``None``: the public view, as a spectator's)."""
        if viewer is not None and viewer not in self.people:
            raise EngineError("not_seated", f"seat {viewer} is not played at this device")
        return {"table": self.table_message(viewer), "state": self.state_message(viewer)}

    # ------------------------------------------------------------------- play

    def next_event(self) -> dict[str, Any]:
        """Make the next automatic event (a deal, or a bot's play); its description."""
        state = self.state
        if state.is_over:
            raise EngineError("not_playing", "the game is over")
        if state.phase == PHASE_DEAL:
            self.session.deal()
        elif self.session.is_bot_turn():
            seat = state.turn
            move = self.session.bot_move(view_of(state, seat))
            self.session.play(move)
        else:
            raise EngineError("not_pending", f"seat {state.turn} is a person: it waits for them")
        self.updated_at = time.time()
        event = self.last_event()
        assert event is not None
        return event

    def move(self, seat: int, text: str, version: int) -> dict[str, Any]:
        """A person's play, checked as a server checks it (turn, version, move text)."""
        state = self.state
        if seat not in self.people:
            raise EngineError("not_seated", f"seat {seat} is not played at this device")
        if state.phase != PHASE_PLAY:
            what = "the game is over" if state.is_over else "no round is being played"
            raise EngineError("not_playing", what)
        if version != self.version:
            raise EngineError(
                "stale",
                f"the table is at version {self.version}, not {version}",
                version=self.version,
            )
        if state.turn != seat:
            raise EngineError("not_your_turn", f"it is seat {state.turn}'s turn", turn=state.turn)
        try:
            move = parse_move(state, text)
        except MoveTextError as exc:
            raise EngineError("bad_move", str(exc), **move_error_details(exc)) from None
        except GameError as exc:
            raise EngineError("bad_move", str(exc), reason="illegal") from None
        self.session.play(move)
        self.updated_at = time.time()
        event = self.last_event()
        assert event is not None
        return event

    def hint(self, seat: int, version: int) -> dict[str, Any]:
        """The coach's hint for a person to move: the ``hint`` message a server sends."""
        if not self.hints:
            raise EngineError("hints_off", "this table was created without hints")
        state = self.state
        if seat not in self.people:
            raise EngineError("not_seated", f"seat {seat} is not played at this device")
        if state.phase != PHASE_PLAY or state.turn != seat or version != self.version:
            raise EngineError("stale", "a hint is for the seat to move, at the table's version")
        advice = self.session.hint(seat)
        move = advice.move
        return {
            "type": "hint",
            "version": version,
            "move": move.text(),
            "card": CARD_NAMES[move.card],
            "take": [CARD_NAMES[c] for c in move.taken()],
            "reason": advice.reason,
            "facts": advice.facts_json(),
        }


# ---------------------------------------------------------------- the worker's calls

_table: OfflineTable | None = None


def _open_table() -> OfflineTable:
    if _table is None:
        raise EngineError("no_game", "no game is open: start one or open a saved one")
    return _table


def _played(table: OfflineTable, event: dict[str, Any]) -> dict[str, Any]:
    return {
        "event": event,
        "version": table.version,
        "over": table.state.is_over,
        "save": table.save(),
        "summary": table.summary(),
    }


def hello() -> dict[str, Any]:
    """The engine and what a new game may be: presets, settings, levels."""
    return {
        "python": sys.version.split()[0],
        "engine": describe(),
        "levels": list(OFFLINE_LEVELS),
        "settings": list(SETTING_NAMES),
        "variants": [
            {"name": name, "description": VARIANT_DESCRIPTIONS.get(name, ""), "rules": r.to_dict()}
            for name, r in PRESETS.items()
        ],
    }


def check_rules(data: Mapping[str, Any]) -> dict[str, Any]:
    """A variant's rules with custom settings, checked by the engine (B5)."""
    variant = _text(data, "variant", "egyptian")
    try:
        base = preset(variant)
        rules = base.with_overrides(data.get("rules") or {})
    except RulesError as exc:
        raise EngineError("bad_settings", str(exc)) from None
    return {"variant": variant, "rules": rules.to_dict(), "overrides": rules.overrides_from(base)}


def conformance(data: Mapping[str, Any]) -> dict[str, Any]:
    """Position queries and record replays (the conformance cases), answered by this engine."""
    positions = []
    for case in data.get("positions") or []:
        try:
            options: Any = capture_query(
                case["variant"], case["rules"], case["floor"], case["before"], case["card"]
            )
        except (ValueError, KeyError) as exc:
            options = {"error": str(exc)}
        positions.append({"id": case.get("id"), "options": options})
    games = []
    for text in data.get("games") or []:
        try:
            games.append(result_json(Record.from_json(json.loads(text)).replay()))
        except (RecordError, ValueError) as exc:
            games.append({"error": type(exc).__name__})
    return {"positions": positions, "games": games}


def bench(data: Mapping[str, Any]) -> dict[str, Any]:
    """Speed in this interpreter: random rounds per second, bot decisions' times."""

    out: dict[str, Any] = {"engine": describe(), "python": sys.version.split()[0]}
    seconds = float(data.get("seconds", 2.0))
    throughput = measure(api_rounds(), seconds)
    out["rounds_per_s"] = throughput.rounds_per_second
    out["best_rounds_per_s"] = throughput.best_rounds_per_second
    for level in data.get("levels") or []:
        if level not in OFFLINE_LEVELS:
            raise EngineError("bad_request", f"no level {level!r} offline")
        wanted = int(data.get("decisions", 20))
        times: list[float] = []
        bot = make_bot(LEVELS[level], seed=1)
        game = 0
        while len(times) < wanted:
            state = GameState("egyptian", 2)
            rng = random.Random(f"bench/{game}")
            game += 1
            while not state.is_over and len(times) < wanted:
                if state.phase == PHASE_DEAL:
                    state.deal(shuffled_pack(state.rules, rng))
                    continue
                view = view_of(state, state.turn)
                started = time.perf_counter()
                move = bot.choose(view)
                times.append(time.perf_counter() - started)
                state.push(move)
        out[level] = times
    return out


def _request(data: Mapping[str, Any]) -> dict[str, Any]:
    global _table
    op = data.get("op")
    if op == "hello":
        return hello()
    if op == "rules":
        return check_rules(data)
    if op == "new":
        _table = OfflineTable.new(data)
        return {"save": _table.save(), "summary": _table.summary()}
    if op == "open":
        _table = OfflineTable.open(data.get("save"))  # type: ignore[arg-type]
        return {"save": _table.save(), "summary": _table.summary()}
    if op == "frames":
        viewer = data.get("viewer")
        if viewer is not None and type(viewer) is not int:
            raise EngineError("bad_request", "'viewer' must be a seat or null")
        return _open_table().frames(viewer)
    if op == "next":
        table = _open_table()
        return _played(table, table.next_event())
    if op == "move":
        table = _open_table()
        move = data.get("move")
        if not isinstance(move, str) or len(move) > 64:
            raise EngineError("bad_request", "'move' must be move text")
        return _played(table, table.move(_whole(data, "seat"), move, _whole(data, "version")))
    if op == "hint":
        return _open_table().hint(_whole(data, "seat"), _whole(data, "version"))
    if op == "rematch":
        _table = _open_table().rematch(_text(data, "id"))
        return {"save": _table.save(), "summary": _table.summary()}
    if op == "conformance":
        return conformance(data)
    if op == "bench":
        return bench(data)
    raise EngineError("unknown_op", f"unknown request {op!r}")


def call(data: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one request (a mapping): ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``."""
    try:
        return {"ok": True, **_request(data)}
    except EngineError as exc:
        return {"ok": False, "error": exc.code, "message": exc.message, **exc.extra}


def handle(text: str) -> str:
    """Answer one request given as JSON text, as JSON text (the worker's one entry point)."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return json.dumps({"ok": False, "error": "bad_request", "message": "send a JSON object"})
    return json.dumps(call(data))
