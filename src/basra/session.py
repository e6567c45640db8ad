"""One table of Basra being played: who sits where, the deals, the bots, saving.

Part of the core (standard library only): the terminal's table
(:mod:`basra.tui`) and the page's offline table (:mod:`basra.offline`, run
in the browser under Pyodide) both play through it, so a game is dealt,
played by its bots and saved the same way at either.

A :class:`Session` holds the :class:`~basra.state.GameState`, the seats
(people, or bots at a level) and a seed. Everything random is derived from
the seed and the position in the game, never from a running generator
(:func:`first_dealer`, :func:`deal_rng`, :func:`bot_seed`):

- round ``k`` is dealt from ``random.Random("basra-play/SEED/deal/k")``;
- a bot's generator is re-seeded before every move from the seed, the round
  and the play number.

So a saved game holds no generator state: the record (RECORD.md) plus the
seats and the seed, under the extra top-level key ``basra_play``, are enough
for ``basra play --resume`` to continue exactly the game that would have been
played without the break (the name a custom rules file gave the rules rides
along there too). The file is still a record that ``basra replay``
reads (unknown top-level keys are ignored).

>>> session = Session.new(seats=["person", "easy"], seed=4)
>>> session.deal()
>>> session.state.phase, session.people
('play', [0])
>>> again = Session.from_json(session.to_json())
>>> again.state.fingerprint() == session.state.fingerprint()
True
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from basra.bots import BOTS, LEVELS, Bot, BotError, make_bot
from basra.coach import Hint, hint
from basra.moves import Move, Play
from basra.record import Record, RecordError, read_records, record_of
from basra.rules import DEFAULT_VARIANT, preset
from basra.state import PHASE_DEAL, PHASE_PLAY, GameError, GameState, shuffled_pack
from basra.transition import play_basra
from basra.view import View, view_of

__all__ = [
    "BOT_NAMES",
    "PERSON",
    "SAVE_FORMAT",
    "SAVE_KEY",
    "SaveExistsError",
    "Seat",
    "Session",
    "SessionError",
    "bot_seed",
    "check_seat_kind",
    "deal_rng",
    "default_names",
    "first_dealer",
]

PERSON = "person"
"""The seat kind of a person at the keyboard (any other kind is a bot level)."""
SAVE_KEY = "basra_play"
"""The extra top-level key of a saved game that holds the play settings."""
SAVE_FORMAT = "basra-play/1"
BOT_NAMES = ("Nour", "Karim", "Salma", "Yusuf")
"""Names the bots sit under, by seat, unless ``--names`` says otherwise."""


def first_dealer(seed: int, players: int) -> int:
    """The first dealer of a game with this seed (RULES.md A2: at random).

    >>> first_dealer(4, 2) in (0, 1)
    True
    """
    return random.Random(f"basra-play/{seed}/dealer").randrange(players)


def deal_rng(seed: int, round_index: int) -> random.Random:
    """The generator round ``round_index`` of a game with this seed is shuffled with."""
    return random.Random(f"basra-play/{seed}/deal/{round_index}")


def bot_seed(seed: int, view: View) -> str:
    """What a bot's generator is seeded with before it chooses in ``view``: the game's
    seed and the position (the round, and the plays made in it)."""
    return f"basra-play/{seed}/bot/{view.round_index}/{len(view.plays)}"


class SessionError(ValueError):
    """Settings that cannot make a table, or a save file that cannot be resumed."""


class SaveExistsError(SessionError):
    """Saving would replace a file that is already there (and was not asked to)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{str(path)!r} already exists")
        self.path = path


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person (``level`` is ``None``) or a bot at a level."""

    name: str
    level: str | None = None

    @property
    def is_person(self) -> bool:
        """True for a person at the keyboard."""
        return self.level is None

    @property
    def kind(self) -> str:
        """``person`` or the bot level, as written in ``--seats`` and save files."""
        return PERSON if self.level is None else self.level


def check_seat_kind(kind: str) -> None:
    """Raise :class:`SessionError` unless ``kind`` is a person, a level or a bot spec.

    The ``cheater`` sees every hand: it measures bots and never sits at a table.
    """
    if kind == PERSON or kind in LEVELS:
        return
    name = kind.partition(":")[0]
    if name == "cheater":
        raise SessionError(
            "the cheater sees every hand; it is a measuring stick for the arena, never an opponent"
        )
    if name not in BOTS:
        raise SessionError(
            f"{kind!r} is not a seat: use 'you' for a person, a bot level "
            f"({', '.join(LEVELS)}), or a bot of `basra bots` "
            f"({', '.join(sorted(b for b in BOTS if b not in LEVELS and b != 'cheater'))})"
        )


def default_names(kinds: Sequence[str]) -> list[str]:
    """Names for the seats: ``You`` for a lone person, ``Player N`` for several."""
    people = sum(kind == PERSON for kind in kinds)
    names = []
    for seat, kind in enumerate(kinds):
        if kind == PERSON:
            names.append("You" if people == 1 else f"Player {seat + 1}")
        else:
            names.append(BOT_NAMES[seat % len(BOT_NAMES)])
    return names


def _check_names(names: Sequence[str], players: int) -> list[str]:
    cleaned = [name.strip() for name in names]
    if len(cleaned) != players:
        raise SessionError(f"--names gives {len(cleaned)} name(s) for {players} players")
    if not all(cleaned):
        raise SessionError("a name cannot be empty")
    if len(set(cleaned)) != len(cleaned):
        raise SessionError("give every seat a different name")
    return cleaned


class Session:
    """A game at one table: the state, the seats, and the seed everything comes from."""

    state: GameState
    seats: list[Seat]
    seed: int
    rules_name: str | None
    """The name a custom rules file gave these rules (``None``: a preset's rules)."""

    def __init__(
        self,
        state: GameState,
        seats: Sequence[Seat],
        seed: int,
        rules_name: str | None = None,
    ) -> None:
        if len(seats) != state.players:
            raise SessionError(f"{state.players} players need {state.players} seats")
        self.state = state
        self.seats = list(seats)
        self.seed = seed
        self.rules_name = rules_name
        self._bots: dict[int, Bot] = {}
        try:
            for index, seat in enumerate(self.seats):
                if seat.level is not None:
                    self._bots[index] = make_bot(seat.level, seed=seed)
        except BotError as exc:
            raise SessionError(str(exc)) from None

    # ----------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        variant: str = DEFAULT_VARIANT,
        overrides: Mapping[str, Any] | None = None,
        *,
        players: int | None = None,
        teams: bool = False,
        seats: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
        seed: int | None = None,
        rules_name: str | None = None,
    ) -> Session:
        """A new game, before its first deal.

        ``seats`` holds a kind per seat (``person`` or a bot level); the default
        is a person in the first seat and ``medium`` bots in the others. The
        first dealer is drawn from the seed (RULES.md A2: at random).
        ``rules_name`` is the name a custom rules file gives its rules.
        """
        if players is None:
            players = len(seats) if seats is not None else 2
        kinds = list(seats) if seats is not None else [PERSON] + ["medium"] * (players - 1)
        if len(kinds) != players:
            raise SessionError(f"{players} players need {players} seats, not {len(kinds)}")
        for kind in kinds:
            check_seat_kind(kind)
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        try:
            state = GameState(
                variant,
                players,
                teams=teams,
                first_dealer=first_dealer(seed, players),
                rules=dict(overrides or {}),
            )
        except GameError as exc:
            raise SessionError(str(exc)) from None
        seat_names = _check_names(names, players) if names else default_names(kinds)
        seat_list = [
            Seat(name, None if kind == PERSON else kind)
            for name, kind in zip(seat_names, kinds, strict=True)
        ]
        return cls(state, seat_list, seed, rules_name)

    def again(self) -> Session:
        """A new game at the same table with the next seed."""
        state = self.state
        return Session.new(
            state.variant,
            state.rules.overrides_from(preset(state.variant)),
            players=state.players,
            teams=state.teams,
            seats=[seat.kind for seat in self.seats],
            names=[seat.name for seat in self.seats],
            seed=self.seed + 1,
            rules_name=self.rules_name,
        )

    # ------------------------------------------------------------------ table

    @property
    def names(self) -> list[str]:
        """The seat names, by seat."""
        return [seat.name for seat in self.seats]

    @property
    def people(self) -> list[int]:
        """The seats played by people, in seat order."""
        return [index for index, seat in enumerate(self.seats) if seat.is_person]

    def side_name(self, side: int) -> str:
        """A side's name: its seat's name, or ``A & B`` for a team."""
        return " & ".join(self.seats[seat].name for seat in self.state.sides[side])

    def is_bot_turn(self) -> bool:
        """True when a round is being played and a bot is to move."""
        state = self.state
        return state.phase == PHASE_PLAY and not self.seats[state.turn].is_person

    def view(self, seat: int) -> View:
        """What ``seat`` may know (the one source of what the screen shows)."""
        return view_of(self.state, seat)

    # ------------------------------------------------------------------- play

    def deal(self) -> None:
        """Deal the next round from the pack its seed and number give."""
        state = self.state
        if state.phase != PHASE_DEAL:
            raise SessionError("nothing to deal now")
        state.deal(shuffled_pack(state.rules, deal_rng(self.seed, len(state.rounds))))

    def bot_move(self, view: View) -> Move:
        """The move of the bot in ``view.seat`` (safe to call from another thread).

        The bot's generator is re-seeded from the seed and the position, so the
        same game gives the same moves after a save and a resume.
        """
        bot = self._bots.get(view.seat)
        if bot is None:
            raise SessionError(f"{self.seats[view.seat].name} is not a bot")
        bot.rng.seed(bot_seed(self.seed, view))
        return bot.choose(view)

    def play(self, move: Move) -> Play:
        """Play a move for the seat to move (checked) and return the play made."""
        return self.state.play(move)

    def hint(self, seat: int) -> Hint:
        """The coach's suggestion for a seat that is to move, and why (one analysis)."""
        return hint(self.view(seat))

    def leftovers(self, index: int) -> int | None:
        """How many cards were left on the floor when round ``index`` ended.

        The last side to capture took them. Every card of a dealt pack is
        either taken by a play or left over; ``None`` for a round that did not
        start from a whole pack (a position set up for analysis).
        """
        log = self.state.rounds[index]
        if log.pack is None or log.result is None:
            return None
        taken = sum(1 + move.take.bit_count() for _, move, _ in log.plays if move.take)
        return len(log.pack) - taken

    def basra_of(self, move: Move) -> int:
        """The basra points ``move`` (a legal move) would score now (0 when it makes none)."""
        state = self.state
        return play_basra(
            state.rules,
            move.card,
            move.take,
            state.floor,
            lone_trail=state.lone_trail,
            last_play=state.is_last_play,
        )

    def close(self) -> None:
        """Release the bots."""
        for bot in self._bots.values():
            bot.close()

    # ------------------------------------------------------------ save, load

    def to_json(self) -> dict[str, Any]:
        """The game as a record (RECORD.md) with the play settings under ``basra_play``."""
        data = record_of(self.state, self.names).to_json()
        data[SAVE_KEY] = {
            "format": SAVE_FORMAT,
            "seats": [seat.kind for seat in self.seats],
            "seed": self.seed,
        }
        if self.rules_name is not None:
            data[SAVE_KEY]["rules_name"] = self.rules_name
        return data

    def save(self, path: str | Path, *, replace: bool = False) -> Path:
        """Write the game to ``path`` (atomically: a failed write leaves the old file).

        A file already at ``path`` is replaced only when ``replace`` is true;
        otherwise :class:`SaveExistsError` is raised and nothing is written.
        """
        target = Path(path).expanduser()
        if not replace and target.exists():
            raise SaveExistsError(target)
        text = json.dumps(self.to_json(), indent=1) + "\n"
        directory = target.parent if str(target.parent) else Path(".")
        try:
            handle, temporary = tempfile.mkstemp(prefix=".basra-", dir=directory)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, target)
        except OSError as exc:
            raise SessionError(f"cannot save to {str(target)!r}: {exc.strerror or exc}") from None
        return target

    @classmethod
    def from_json(
        cls,
        data: Mapping[str, Any],
        *,
        seats: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
    ) -> Session:
        """A game from a saved record; ``seats`` and ``names`` override the file's."""
        try:
            record = Record.from_json(data)
            state = record.replay()
        except RecordError as exc:  # people count games, rounds and plays from 1
            raise SessionError(f"not a game that can be resumed: {exc.for_people()}") from None
        return cls._from_record(record, state, data.get(SAVE_KEY), seats, names)

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        seats: Sequence[str] | None = None,
        names: Sequence[str] | None = None,
    ) -> Session:
        """A game from a save file (or any one-game record file)."""
        try:
            games = list(read_records(path))
        except RecordError as exc:
            raise SessionError(str(exc)) from None
        if len(games) != 1:
            raise SessionError(f"{str(path)!r} holds {len(games)} games; resume needs one game")
        (item,) = games
        if isinstance(item, RecordError):
            raise SessionError(f"{str(path)!r} is not a game record: {item.for_people()}")
        if Path(path).suffix.lower() == ".jsonl":
            return cls.from_json(item.to_json(), seats=seats, names=names)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SessionError(f"cannot read {str(path)!r}: {exc}") from None
        return cls.from_json(data, seats=seats, names=names)

    @classmethod
    def _from_record(
        cls,
        record: Record,
        state: GameState,
        extra: object,
        seats: Sequence[str] | None,
        names: Sequence[str] | None,
    ) -> Session:
        saved_seats: list[str] | None = None
        seed: int | None = None
        rules_name: str | None = None
        if isinstance(extra, Mapping):
            raw_name = extra.get("rules_name")
            if isinstance(raw_name, str) and raw_name.strip():
                rules_name = raw_name.strip()
            raw_seats = extra.get("seats")
            if isinstance(raw_seats, list) and all(isinstance(s, str) for s in raw_seats):
                saved_seats = list(raw_seats)
            raw_seed = extra.get("seed")
            if type(raw_seed) is int:
                seed = raw_seed
        kinds = list(seats) if seats is not None else saved_seats
        if kinds is None:
            kinds = [PERSON] + ["medium"] * (state.players - 1)
        if len(kinds) != state.players:
            raise SessionError(
                f"the saved seats {kinds!r} do not fit a table of {state.players} players"
            )
        for kind in kinds:
            check_seat_kind(kind)
        if names:
            seat_names = _check_names(names, state.players)
        elif record.names is not None and len(set(record.names)) == state.players:
            seat_names = list(record.names)
        else:
            seat_names = default_names(kinds)
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        seat_list = [
            Seat(name, None if kind == PERSON else kind)
            for name, kind in zip(seat_names, kinds, strict=True)
        ]
        return cls(state, seat_list, seed, rules_name)
