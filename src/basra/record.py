"""Game records (RECORD.md): read, write and replay, with precise errors.

A record is a game's variant, rule overrides, table, and each round's pack and
plays. :meth:`Record.replay` checks every play through the engine and returns
the final :class:`~basra.state.GameState`; :func:`result_json` gives the
``basra replay --json`` output of a state.

>>> import random
>>> from basra.state import GameState
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(3))
>>> state.push(state.legal_moves()[0])
>>> record = record_of(state)
>>> Record.from_json(record.to_json()).replay().fingerprint() == state.fingerprint()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from basra.cards import CARD_NAMES
from basra.notation import MoveTextError, parse_move
from basra.rules import VARIANT_NAMES, preset
from basra.state import PHASE_PLAY, DealError, GameError, GameState

__all__ = [
    "RECORD_FORMAT",
    "RESULT_FORMAT",
    "Record",
    "RecordError",
    "RoundRecord",
    "read_records",
    "record_of",
    "replay_json",
    "result_json",
]

RECORD_FORMAT = "basra-record/1"
RESULT_FORMAT = "basra-result/1"


class RecordError(ValueError):
    """A malformed record or an illegal play in it, located by game, round and play."""

    def __init__(
        self,
        reason: str,
        *,
        game: int | None = None,
        round: int | None = None,
        play: int | None = None,
    ) -> None:
        self.reason = reason
        self.game = game
        self.round = round
        self.play = play
        super().__init__(str(self))

    def located(self, game: int) -> RecordError:
        """The same error, naming the game it belongs to."""
        return RecordError(self.reason, game=game, round=self.round, play=self.play)

    def for_people(self) -> str:
        """The error with its game, round and play counted from 1, as people count them
        (``str()`` counts from 0, as RECORD.md does).

        >>> RecordError("no such card", game=0, round=2, play=5).for_people()
        'game 1, round 3, play 6: no such card'
        """
        where = [
            f"{name} {number + 1}"
            for name, number in (("game", self.game), ("round", self.round), ("play", self.play))
            if number is not None
        ]
        return (", ".join(where) + ": " if where else "") + self.reason

    def __str__(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.play is not None:
            where.append(f"play {self.play}")
        return (", ".join(where) + ": " if where else "") + self.reason


@dataclass
class RoundRecord:
    """One round of a record: the pack (card text, top first) and the plays (move text)."""

    pack: list[str]
    plays: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The round as RECORD.md JSON."""
        return {"pack": list(self.pack), "plays": list(self.plays)}


@dataclass
class Record:
    """A game record (RECORD.md, format ``basra-record/1``)."""

    variant: str
    players: int
    rounds: list[RoundRecord] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)
    teams: bool = False
    first_dealer: int = 0
    names: list[str] | None = None

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record from parsed JSON, checking its header and shape.

        Rule values, packs and plays are checked when the record is replayed.
        """
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"'format' must be {RECORD_FORMAT!r}, not {data.get('format')!r}")
        variant = data.get("variant")
        if variant not in VARIANT_NAMES:
            raise RecordError(
                f"'variant' must be one of {', '.join(VARIANT_NAMES)}, not {variant!r}"
            )
        players = data.get("players")
        if type(players) is not int or players not in (2, 3, 4):
            raise RecordError(f"'players' must be 2, 3 or 4, not {players!r}")
        rules = data.get("rules")
        if rules is None:
            rules = {}
        if not isinstance(rules, Mapping):
            raise RecordError(f"'rules' must be an object of settings, not {rules!r}")
        teams = data.get("teams", False)
        if not isinstance(teams, bool):
            raise RecordError(f"'teams' must be true or false, not {teams!r}")
        if teams and players != 4:
            raise RecordError(f"'teams' needs 4 players, not {players}")
        first_dealer = data.get("first_dealer", 0)
        if type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise RecordError(
                f"'first_dealer' must be a seat from 0 to {players - 1}, not {first_dealer!r}"
            )
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != players
            or not all(isinstance(n, str) for n in names)
        ):
            raise RecordError(f"'names' must be a list of {players} names")
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list):
            raise RecordError("'rounds' must be a list of rounds")
        rounds = []
        for index, raw in enumerate(raw_rounds):
            if not isinstance(raw, Mapping):
                raise RecordError("a round must be an object with 'pack' and 'plays'", round=index)
            pack = raw.get("pack")
            if not isinstance(pack, list) or not all(isinstance(c, str) for c in pack):
                raise RecordError("'pack' must be a list of card texts", round=index)
            plays = raw.get("plays", [])
            if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
                raise RecordError("'plays' must be a list of move texts", round=index)
            rounds.append(RoundRecord(list(pack), list(plays)))
        return cls(
            variant=variant,
            players=players,
            rounds=rounds,
            rules=dict(rules),
            teams=teams,
            first_dealer=first_dealer,
            names=list(names) if names is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The record as RECORD.md JSON."""
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": self.variant,
            "rules": dict(self.rules),
            "players": self.players,
            "teams": self.teams,
            "first_dealer": self.first_dealer,
        }
        if self.names is not None:
            out["names"] = list(self.names)
        out["rounds"] = [r.to_json() for r in self.rounds]
        return out

    def new_state(self) -> GameState:
        """The game before its first deal."""
        try:
            return GameState(
                self.variant,
                self.players,
                teams=self.teams,
                first_dealer=self.first_dealer,
                rules=self.rules,
            )
        except GameError as exc:
            raise RecordError(str(exc)) from None

    def replay(self) -> GameState:
        """Play the record through the engine, checking every play.

        Raises :class:`RecordError` naming the round and play at fault.
        """
        state = self.new_state()
        for index, rnd in enumerate(self.rounds):
            if state.is_over:
                raise RecordError(
                    f"the game ended after round {index - 1}; no round may follow", round=index
                )
            if state.phase == PHASE_PLAY:
                raise RecordError(
                    f"round {index - 1} is cut short, so no round may follow it", round=index
                )
            try:
                state.deal(rnd.pack)
            except DealError as exc:
                raise RecordError(str(exc), round=index) from None
            for number, text in enumerate(rnd.plays):
                if state.phase != PHASE_PLAY:
                    raise RecordError(
                        f"the round ended after {number} plays; {text!r} is one too many",
                        round=index,
                        play=number,
                    )
                try:
                    move = parse_move(state, text)
                except (MoveTextError, GameError) as exc:
                    raise RecordError(
                        f"seat {state.turn} cannot play {text!r}: {exc}", round=index, play=number
                    ) from None
                state.push(move)
        return state


def record_of(state: GameState, names: Sequence[str] | None = None) -> Record:
    """The record of a game played with the engine (every round must have its pack)."""
    rounds = []
    for index, rnd in enumerate(state.rounds):
        if rnd.pack is None:
            raise ValueError(f"round {index} has no recorded pack (a determinized state?)")
        rounds.append(
            RoundRecord([CARD_NAMES[c] for c in rnd.pack], [p.move.text() for p in rnd.plays])
        )
    return Record(
        variant=state.variant,
        players=state.players,
        rounds=rounds,
        rules=state.rules.overrides_from(preset(state.variant)),
        teams=state.teams,
        first_dealer=state.first_dealer,
        names=list(names) if names is not None else None,
    )


def result_json(state: GameState) -> dict[str, Any]:
    """The ``basra replay --json`` output (``basra-result/1``) for a state."""
    rounds = []
    for rnd in state.rounds:
        entry: dict[str, Any] = {
            "plays": [{"seat": p.seat, "move": p.move.text(), "basra": p.basra} for p in rnd.plays]
        }
        if rnd.result is not None:
            entry.update(rnd.result.to_json())
        rounds.append(entry)
    outcome = state.outcome()
    return {
        "format": RESULT_FORMAT,
        "variant": state.variant,
        "sides": [list(side) for side in state.sides],
        "rounds": rounds,
        "score": list(state.scores),
        "finished": outcome is not None,
        "winner": outcome.winner if outcome is not None else None,
    }


def read_records(path: str | Path) -> Iterator[Record | RecordError]:
    """The games of a record file, each a :class:`Record` or the error reading it.

    A ``.jsonl`` file holds one game per non-blank line; any other file holds
    one game. Errors name the game's index (0-based) and do not stop the others.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
    if path.suffix.lower() == ".jsonl":
        chunks = [line for line in text.splitlines() if line.strip()]
    else:
        chunks = [text]
    for index, chunk in enumerate(chunks):
        try:
            data = json.loads(chunk)
        except json.JSONDecodeError as exc:
            yield RecordError(f"not valid JSON: {exc}", game=index)
            continue
        except RecursionError:
            yield RecordError("not a record: JSON nested too deeply", game=index)
            continue
        try:
            yield Record.from_json(data)
        except RecordError as exc:
            yield exc.located(index)


def replay_json(record: Record) -> dict[str, Any]:
    """Replay a record and give its ``basra-result/1`` output."""
    return result_json(record.replay())
