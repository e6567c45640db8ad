"""The check of an uploaded offline game: replayed as the page would have played it.

The page's offline table (:mod:`basra.offline`) plays through
:class:`basra.session.Session`, whose deals and bots come from the game's seed
and the position alone; so the server can play the game again and find every
deal and every bot play the same, or say where it is not
(:class:`ForgedRecordError`, with a code the page shows and a message in words).

Before any of that, :func:`screen_upload` looks at the upload's shape, sizes and
counts alone (microseconds, no replay: the save's settings, seats and names,
at most :data:`MAX_ROUNDS` rounds, each pack the rules' size and each round at
most the plays its deal allows, the claimed result's shape), so a malformed
upload is refused in the server's loop before any work is queued; the replay
itself (:func:`replay_upload`) runs on the server's workers
(:mod:`basra.server.features.offline`).

A bot's play is made again with the bot the page runs: the pure-Python search
(the page has no compiled kernel), seeded as the session seeds it
(:func:`basra.session.bot_seed`; the search seeds each decision from the seed
and the view alone, the same on every platform). Easy and medium decisions
take a millisecond and are made inline; a ``hard`` decision takes a tenth of a
second or more, so :func:`check_offline_game` can hand those back
(``defer``) for the caller to run on the server's workers (:func:`page_bot_move`,
:func:`check_decision`).

>>> from basra.offline import call
>>> answer = call({"op": "new", "id": "g", "seats": ["person", "easy"], "seed": 5})
>>> summary = answer["summary"]
>>> upload = {"save": answer["save"], "seat": 0,
...           "result": {"scores": summary["scores"], "winner": None, "finished": False}}
>>> check_offline_game(upload).status
'unfinished'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from basra.bots import LEVELS, Bot, make_bot
from basra.cards import CardError, parse_card
from basra.moves import Move
from basra.notation import MoveTextError, parse_move
from basra.offline import OFFLINE_FORMAT, OFFLINE_KEY, OFFLINE_LEVELS, bot_name
from basra.record import Record, RecordError, result_json
from basra.rules import Rules, preset
from basra.server import words
from basra.server.errors import ProtocolError
from basra.session import PERSON, SAVE_FORMAT, SAVE_KEY, bot_seed, deal_rng, first_dealer
from basra.state import GameError, GameState, shuffled_pack
from basra.transition import deal_schedule
from basra.view import View, view_of

__all__ = [
    "DEFERRED_LEVELS",
    "MAX_ROUNDS",
    "BotDecision",
    "CheckedGame",
    "ForgedRecordError",
    "check_decision",
    "check_offline_game",
    "page_bot",
    "page_bot_move",
    "plays_per_round",
    "replay_upload",
    "screen_upload",
]

MAX_ROUNDS = 60
"""Most rounds in an uploaded game (a game to 301 points takes about 25)."""
MAX_NAME = words.NAME.high
"""Longest name of a person at an offline table (the page's limit)."""
DEFERRED_LEVELS = ("hard",)
"""Bot levels whose decisions the server's check makes again one by one on its workers
(a tenth of a second or more each), not within the replay."""


class ForgedRecordError(ValueError):
    """An uploaded game that is not what its page would have played: ``code`` and why."""

    def __init__(self, code: str, message: str, **where: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (raised in a worker process, re-raised in the server's)."""
        return _forged_again, (self.code, self.message, self.where)


def _forged_again(code: str, message: str, where: dict[str, Any]) -> ForgedRecordError:
    return ForgedRecordError(code, message, **where)


@dataclass(frozen=True)
class BotDecision:
    """A bot's play in an uploaded game, to be made again: the bot, the view it chose
    from, and the move the record says it made."""

    level: str
    seed: int
    view: View
    move: Move
    round: int
    play: int
    name: str


@dataclass(frozen=True)
class CheckedGame:
    """An offline game the server replayed and found sound, ready to keep (unrated)."""

    client_id: str
    """The page's id of the game: uploading it again finds the same stored game."""
    record: dict[str, Any]
    """The record (RECORD.md), names included, without the page's own keys."""
    result: dict[str, Any]
    """The server's replay (``basra-result/1``)."""
    kinds: tuple[str, ...]
    """Per seat: ``person`` or a bot level."""
    names: tuple[str, ...]
    seed: int
    uploader_seat: int
    """The seat the person uploading played (their identity goes there)."""
    finished: bool
    created_at: float | None
    overrides: dict[str, Any] = field(default_factory=dict)
    """The game's rule overrides of its variant (as a table stores them)."""
    packs: tuple[tuple[int, ...], ...] = ()
    """Each round's pack, top card first (the table's ``deal`` events)."""
    moves: tuple[tuple[Move, ...], ...] = ()
    """Each round's moves, in order (the table's ``play`` events)."""
    bots_checked: tuple[int, ...] = field(default=())
    """The plays (numbered through the game) made again by their bot and found the same."""
    deferred: tuple[BotDecision, ...] = ()
    """The bot plays left to make again (levels in ``defer``: see :func:`check_decision`)."""

    @property
    def status(self) -> str:
        """``over`` or ``unfinished``."""
        return "over" if self.finished else "unfinished"

    @property
    def events(self) -> int:
        """How many deals and plays the game has."""
        return len(self.packs) + sum(len(moves) for moves in self.moves)


def page_bot(level: str, seed: int) -> Bot:
    """The bot at ``level`` as the page runs it: the pure-Python search (no kernel)."""
    spec = LEVELS[level]
    if spec.startswith("ismcts"):
        spec += ",kernel=0"
    return make_bot(spec, seed)


def page_bot_move(level: str, seed: int, view: View) -> Move:
    """The move the page's bot at ``level`` makes in ``view`` in a game of ``seed`` (seeded
    as :meth:`basra.session.Session.bot_move` seeds it; runs in a worker)."""
    bot = page_bot(level, seed)
    bot.rng.seed(bot_seed(seed, view))
    return bot.choose(view)


def check_decision(decision: BotDecision, made: Move) -> None:
    """Raise ``wrong_bot_play`` unless the bot made the move the record says (``made``:
    what it makes there, from :func:`page_bot_move`)."""
    if made != decision.move:
        raise ForgedRecordError(
            "wrong_bot_play",
            f"round {decision.round + 1}, play {decision.play + 1}: {decision.name} plays "
            f"{made.text()} there, not {decision.move.text()}",
            round=decision.round,
            play=decision.play,
            seat=decision.view.seat,
        )


def _forged(code: str, message: str, **where: Any) -> ForgedRecordError:
    return ForgedRecordError(code, message, **where)


def _settings(upload: Mapping[str, Any]) -> tuple[Mapping[str, Any], str, list[str], int, Record]:
    """The save's own keys, its id, seats, seed and record, each checked for its shape."""
    save = upload.get("save")
    if not isinstance(save, Mapping):
        raise _forged("bad_record", "'save' must be the offline game's save (a JSON object)")
    own = save.get(OFFLINE_KEY)
    play = save.get(SAVE_KEY)
    if not isinstance(own, Mapping) or own.get("format") != OFFLINE_FORMAT:
        raise _forged("bad_record", f"not a game of the offline table: no {OFFLINE_KEY!r}")
    if not isinstance(play, Mapping) or play.get("format") != SAVE_FORMAT:
        raise _forged("bad_record", f"no play settings ({SAVE_KEY!r}): seats and seed")
    client_id = own.get("id")
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
        raise _forged("bad_record", "the game's 'id' must be 1 to 64 characters")
    kinds = play.get("seats")
    seed = play.get("seed")
    if type(seed) is not int:
        raise _forged("bad_record", "the game's seed must be a whole number")
    try:
        record = Record.from_json(save)
    except RecordError as exc:
        raise _forged("bad_record", f"the record does not read: {exc.for_people()}") from None
    if len(record.rounds) > MAX_ROUNDS:
        raise _forged("bad_record", f"a game has at most {MAX_ROUNDS} rounds")
    if not isinstance(kinds, list) or len(kinds) != record.players:
        raise _forged("bad_record", f"'seats' must name {record.players} seats")
    return own, client_id, kinds, seed, record


def _seats(
    upload: Mapping[str, Any], kinds: Sequence[Any], record: Record
) -> tuple[list[str], int]:
    """The seat names, and the uploader's seat: people and offline bots, named as the page
    names them."""
    for kind in kinds:
        if kind != PERSON and kind not in OFFLINE_LEVELS:
            raise _forged("bad_seat", f"{kind!r} is not a seat of an offline game")
    people = [seat for seat, kind in enumerate(kinds) if kind == PERSON]
    if not people:
        raise _forged("bad_seat", "nobody played this game: every seat is a bot")
    names = record.names
    if names is None:
        raise _forged("bad_record", "the record must name its seats")
    for seat, kind in enumerate(kinds):
        if kind != PERSON and names[seat] != bot_name(seat, kind):
            raise _forged(
                "bad_seat",
                f"seat {seat + 1} is a {kind} bot, so its name is {bot_name(seat, kind)!r}",
            )
    for seat in people:
        name = names[seat]
        field = f"names.{seat}"
        try:
            shown = words.check_text(field, name, words.NAME)
        except ProtocolError as error:
            why = error.message.removeprefix(f"{field}: ")
            raise _forged(error.code, f"seat {seat + 1}'s name: {why}", seat=seat) from None
        if shown != name:
            raise _forged("bad_name", f"seat {seat + 1}'s name is written {shown!r}", seat=seat)
    seat = upload.get("seat", people[0])
    if type(seat) is not int or seat not in people:
        raise _forged("bad_seat", f"'seat' must be a seat a person played: {people}")
    return list(names), seat


def plays_per_round(rules: Rules, players: int) -> int:
    """The plays of a whole round: every card dealt to a hand is played once.

    >>> from basra.rules import preset
    >>> plays_per_round(preset("egyptian"), 2), plays_per_round(preset("egyptian"), 3)
    (48, 48)
    """
    return rules.pack - deal_schedule(rules, players).floor


@dataclass(frozen=True)
class _Screened:
    """What the cheap look at an upload found (the replay starts from it)."""

    own: Mapping[str, Any]
    client_id: str
    kinds: list[str]
    seed: int
    record: Record
    names: list[str]
    seat: int
    state: GameState


def _screen(upload: Mapping[str, Any]) -> _Screened:
    """Every check of an upload that needs no replay: its shape, sizes and counts."""
    own, client_id, kinds, seed, record = _settings(upload)
    names, seat = _seats(upload, kinds, record)
    if record.first_dealer != first_dealer(seed, record.players):
        raise _forged("wrong_deal", f"seed {seed} does not give this first dealer")
    try:
        state = record.new_state()
    except RecordError as exc:
        raise _forged("bad_record", exc.for_people()) from None
    rules = state.rules
    most = plays_per_round(rules, record.players)
    for index, entry in enumerate(record.rounds):
        if len(entry.pack) != rules.pack:
            raise _forged(
                "bad_record", f"round {index + 1}: a pack has {rules.pack} cards", round=index
            )
        if len(entry.plays) > most:
            raise _forged(
                "bad_record",
                f"round {index + 1}: a round of {record.players} players has at most {most} plays",
                round=index,
            )
        if index + 1 < len(record.rounds) and len(entry.plays) != most:
            raise _forged(
                "bad_record", f"round {index + 1} ends before its {most} plays", round=index
            )
    _claimed(upload)
    return _Screened(own, client_id, kinds, seed, record, names, seat, state)


def _claimed(upload: Mapping[str, Any]) -> Mapping[str, Any]:
    """The result the page showed, checked for its shape: scores, winner, finished."""
    claimed = upload.get("result")
    if not isinstance(claimed, Mapping):
        raise _forged("bad_request", "'result' must say what the page showed: scores, winner")
    scores = claimed.get("scores")
    winner = claimed.get("winner")
    if (
        not isinstance(scores, list)
        or not 2 <= len(scores) <= 4
        or not all(type(score) is int for score in scores)
        or not (winner is None or type(winner) is int)
        or not isinstance(claimed.get("finished"), bool)
    ):
        raise _forged(
            "bad_request",
            "'result' must be {scores: [2 to 4 whole numbers], winner: a number or null, "
            "finished: true or false}",
        )
    return claimed


def screen_upload(upload: Mapping[str, Any]) -> None:
    """Refuse an upload on its shape, sizes and counts alone (no replay: microseconds, in
    the server's loop); raises :class:`ForgedRecordError` as the replay would.

    >>> try:
    ...     screen_upload({"save": {}, "result": {}})
    ... except ForgedRecordError as refused:
    ...     print(refused.code, refused.message)
    bad_record not a game of the offline table: no 'basra_offline'
    """
    _screen(upload)


def replay_upload(upload: Mapping[str, Any]) -> CheckedGame:
    """:func:`check_offline_game` as the server runs it on its workers: the hard bots'
    decisions handed back (:data:`DEFERRED_LEVELS`), to be made again one by one."""
    return check_offline_game(upload, defer=DEFERRED_LEVELS)


def check_offline_game(
    upload: Mapping[str, Any],
    *,
    verify_bots: Sequence[str] = OFFLINE_LEVELS,
    defer: Sequence[str] = (),
) -> CheckedGame:
    """Replay an uploaded offline game as the page would have played it, or say what is wrong.

    ``upload`` is ``{"save": <the page's save>, "result": {"scores", "winner",
    "finished"}, "seat": n}``: the save is the record with the offline table's
    settings (:mod:`basra.offline`), the result is what the page showed, the
    seat is the uploader's. Checked: the record reads and every play is legal
    (RECORD.md replay); the first dealer and each round's pack are the ones the
    game's seed gives (:func:`basra.session.first_dealer`,
    :func:`basra.session.deal_rng`); the seats are people and offline bot levels
    with the names the page gives bots; each play of a bot whose level is in
    ``verify_bots`` is the move that bot makes there (levels also in ``defer``
    are handed back in :attr:`CheckedGame.deferred` instead, to be made on the
    server's workers); and the page's result is the replay's. Raises
    :class:`ForgedRecordError`.
    """
    screened = _screen(upload)
    own, client_id, kinds, seed = screened.own, screened.client_id, screened.kinds, screened.seed
    record, names, seat, state = screened.record, screened.names, screened.seat, screened.state
    rules = state.rules
    inline = {
        index: page_bot(kind, seed)
        for index, kind in enumerate(kinds)
        if kind in verify_bots and kind not in defer
    }
    checked: list[int] = []
    deferred: list[BotDecision] = []
    packs: list[tuple[int, ...]] = []
    moves: list[tuple[Move, ...]] = []
    total = 0
    for index, entry in enumerate(record.rounds):
        if state.is_over:
            raise _forged("bad_record", "the record goes on after the game ended", round=index)
        pack = shuffled_pack(rules, deal_rng(seed, index))
        try:
            recorded = [parse_card(text) for text in entry.pack]
        except CardError as exc:
            raise _forged("bad_record", f"round {index + 1}: {exc}", round=index) from None
        if recorded != pack:
            raise _forged(
                "wrong_deal", f"round {index + 1} was not dealt from the game's seed", round=index
            )
        state.deal(pack)
        packs.append(tuple(pack))
        made: list[Move] = []
        for number, text in enumerate(entry.plays):
            mover = state.turn
            where = {"round": index, "play": number, "seat": mover}
            try:
                move = parse_move(state, text)
            except (MoveTextError, GameError) as exc:
                raise _forged(
                    "illegal_play",
                    f"round {index + 1}, play {number + 1} ({names[mover]}): {exc}",
                    **where,
                ) from None
            kind = kinds[mover]
            if kind != PERSON and kind in verify_bots:
                view = view_of(state, mover)
                decision = BotDecision(kind, seed, view, move, index, number, names[mover])
                bot = inline.get(mover)
                if bot is None:
                    deferred.append(decision)
                else:
                    bot.rng.seed(bot_seed(seed, view))
                    check_decision(decision, bot.choose(view))
                    checked.append(total)
            state.push(move)
            made.append(move)
            total += 1
        moves.append(tuple(made))
    result = result_json(state)
    claimed = _claimed(upload)
    page = (claimed.get("scores"), claimed.get("winner"), claimed.get("finished"))
    replayed = (result["score"], result["winner"], result["finished"])
    if page != replayed:
        raise _forged(
            "wrong_result",
            f"the page says scores {page[0]}, winner {page[1]}, finished {page[2]}; "
            f"the plays give scores {replayed[0]}, winner {replayed[1]}, finished {replayed[2]}",
        )
    created = own.get("created_at")
    return CheckedGame(
        client_id=client_id,
        record=record.to_json(),
        result=result,
        kinds=tuple(kinds),
        names=tuple(names),
        seed=seed,
        uploader_seat=seat,
        finished=bool(result["finished"]),
        created_at=float(created) if isinstance(created, int | float) else None,
        overrides=rules.overrides_from(preset(state.variant)),
        packs=tuple(packs),
        moves=tuple(moves),
        bots_checked=tuple(checked),
        deferred=tuple(deferred),
    )
