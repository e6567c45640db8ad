"""Offline play: the installable app, its service worker, the engine for the page, and uploads.

The page plays offline on the server's own engine: the core's Python sources,
served from the installed package (:class:`CoreSources`), run in a Web Worker
under Pyodide (the pinned npm package of ``pyodide.json``, fetched and checked
by ``scripts/fetch-pyodide`` into :func:`runtime_folder`). Nothing of a rule
is written in JavaScript. :func:`offline_router` serves, all from this module:

- ``GET /sw.js``: the service worker (``static/offline/sw.js``) with its
  precache list inlined (:class:`Precache`: each file's URL and content hash,
  and a version over them all), so a deploy that changes any file changes the
  worker, which fetches only the files whose hash changed and waits until the
  page says "reload to update" (no old and new files mixed);
- ``GET /manifest.webmanifest[?lang=ar]``: the web app manifest in English or
  Arabic;
- ``GET /offline/runtime.json``: whether offline play is installed, and where
  its runtime and the core's sources are;
- ``GET /offline/core/{hash}.zip``: the core's sources, the bots, the coach,
  the offline table (:mod:`basra.server.offline_engine`): standard library only;
- ``GET /offline/pyodide/{version}/{file}``: the Pyodide runtime (gzip when
  the browser takes it);
- ``GET /offline`` and ``/offline/g/{id}``: the page;
- ``POST /api/offline/games`` (*auth*): a finished or unfinished offline game
  (its save) for the caller's history, checked by :func:`check_offline_game`
  (a forged record is refused with the reason) and kept, unrated, by an
  :class:`OfflineGames` store.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import os
import random
import zipfile
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

import basra
from basra.bots import LEVELS, make_bot
from basra.cards import CardError, parse_card
from basra.notation import MoveTextError, parse_move
from basra.record import Record, RecordError, result_json
from basra.server.offline_engine import OFFLINE_FORMAT, OFFLINE_KEY, OFFLINE_LEVELS, bot_name
from basra.state import GameError, shuffled_pack
from basra.tui.session import PERSON, SAVE_FORMAT, SAVE_KEY
from basra.view import view_of

__all__ = [
    "MAX_UPLOAD",
    "PIN",
    "CheckedGame",
    "CoreSources",
    "ForgedRecordError",
    "OfflineGames",
    "Precache",
    "StoredGame",
    "check_offline_game",
    "manifest",
    "offline_router",
    "runtime_folder",
]

HERE = Path(__file__).parent
PIN: dict[str, Any] = json.loads((HERE / "pyodide.json").read_text(encoding="utf-8"))
"""The pinned Pyodide package: ``version``, sha512 ``integrity``, the ``files`` needed."""
MAX_UPLOAD = 65_536
"""Largest offline game this route reads, in bytes. Under ``/api/`` the app's body guard
(16 KB) comes first: a four-player game to 301 points is about 12 KB."""
MAX_ROUNDS = 60
"""Most rounds in an uploaded game (a game to 301 points takes about 25)."""
THEME = "#0f4d2c"
BACKGROUND = "#0b3a21"
PRECACHE_SUFFIXES = (".js", ".css", ".svg", ".woff2", ".png")
"""Which files of ``static/`` the service worker keeps (the page is kept as ``/``)."""
CORE_PACKAGES = ("", "bots", "coach")
"""The packages of ``basra`` whose modules go to the page whole (``""``: the core)."""
CORE_EXTRA = ("tui/__init__.py", "tui/session.py", "bots/ratings.json")
"""Files from elsewhere in ``basra`` the offline table needs (the terminal's table of
people and bots at one device: standard library only)."""
LAZY_IMPORTS = {
    "ray": "bots/arena.py",
    "openskill": "bots/arena.py",
    "basra.cli.records": "tui/session.py",
}
"""Modules the page does not get that files it gets import lazily, inside the functions
that need them, which never run offline: the arena on a Ray cluster and its ratings,
and the command line's wording of a bad save file (the offline table checks a save
before the terminal's session reads it)."""


def runtime_folder() -> Path:
    """Where ``scripts/fetch-pyodide`` puts the runtime (``$BASRA_PYODIDE`` to move it)."""
    configured = os.environ.get("BASRA_PYODIDE", "").strip()
    return Path(configured) if configured else HERE / "pyodide"


def runtime_missing(folder: Path) -> list[str]:
    """The runtime's files missing from ``folder`` (all of them when it is another version)."""
    try:
        stamp = json.loads((folder / "VERSION.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = None
    if not isinstance(stamp, dict) or stamp.get("integrity") != PIN["integrity"]:
        return list(PIN["files"])
    return [name for name in PIN["files"] if not (folder / name).is_file()]


class _Hashes:
    """Content hashes of files, worked out again only when a file's size or time changes."""

    def __init__(self) -> None:
        self._known: dict[Path, tuple[int, int, str]] = {}

    def of(self, path: Path) -> tuple[str, int]:
        stat = path.stat()
        known = self._known.get(path)
        if known is not None and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2], stat.st_size
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        self._known[path] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest, stat.st_size


class CoreSources:
    """The core's Python sources as one zip for the page, from the installed package.

    The zip holds ``basra/...`` (the core, the bots, the coach, the terminal's
    table) and ``offline_engine.py`` at its top level, so the page never
    imports ``basra.server``. Built on request, kept while no file changes, and
    named by a hash of its content: the page always runs this server's rules.
    """

    def __init__(self, package: Path | None = None) -> None:
        self.package = package or Path(basra.__file__).parent
        self._built: tuple[tuple[tuple[str, int, int], ...], bytes, str] | None = None

    def files(self) -> list[tuple[str, Path]]:
        """(name in the zip, file) for every file the page needs, in a fixed order."""
        out: list[tuple[str, Path]] = []
        for package in CORE_PACKAGES:
            folder = self.package / package if package else self.package
            for path in sorted(folder.glob("*.py")):
                if path.name != "__main__.py":
                    out.append((f"basra/{path.relative_to(self.package).as_posix()}", path))
        for extra in CORE_EXTRA:
            out.append((f"basra/{extra}", self.package / extra))
        out.append(("offline_engine.py", HERE / "offline_engine.py"))
        return out

    def build(self) -> tuple[bytes, str]:
        """The zip's bytes and its hash (16 hex digits), built again when a file changed."""
        files = self.files()
        signature = tuple(
            (name, path.stat().st_mtime_ns, path.stat().st_size) for name, path in files
        )
        if self._built is not None and self._built[0] == signature:
            return self._built[1], self._built[2]
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, path in files:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
        data = buffer.getvalue()
        digest = hashlib.sha256(data).hexdigest()[:16]
        self._built = (signature, data, digest)
        return data, digest


@dataclass(frozen=True)
class PrecacheEntry:
    """A file the service worker keeps: its URL, a hash of its content, its size."""

    url: str
    hash: str
    bytes: int


class Precache:
    """What the service worker keeps for the page to work offline, and its version.

    The app shell (the page as ``/``, its scripts, styles, card faces, fonts,
    icons), ``/offline/runtime.json``, the core's sources and, when installed,
    the Pyodide runtime. The version is a hash over every entry: it changes
    exactly when a file does.
    """

    def __init__(self, static: Path, core: CoreSources, runtime: Path) -> None:
        self.static = static
        self.core = core
        self.runtime = runtime
        self._hashes = _Hashes()

    def runtime_url(self) -> str:
        """Where the page loads Pyodide from (the version is in the path)."""
        return f"/offline/pyodide/{PIN['version']}/"

    def runtime_info(self) -> dict[str, Any]:
        """``/offline/runtime.json``: whether offline play is installed, and where things are."""
        _, digest = self.core.build()
        missing = runtime_missing(self.runtime)
        out: dict[str, Any] = {
            "installed": not missing,
            "pyodide": {"version": PIN["version"], "url": self.runtime_url()},
            "core": {"url": f"/offline/core/{digest}.zip", "hash": digest},
            "levels": list(OFFLINE_LEVELS),
        }
        if missing:
            out["message"] = (
                "offline play is not installed on this server: scripts/setup fetches "
                f"Pyodide {PIN['version']} (missing: {', '.join(missing)})"
            )
        return out

    def entries(self) -> list[PrecacheEntry]:
        """Every file to keep, in a fixed order."""
        out = []
        digest, size = self._hashes.of(self.static / "index.html")
        out.append(PrecacheEntry("/", digest, size))
        for path in sorted(self.static.rglob("*")):
            if path.is_file() and path.suffix in PRECACHE_SUFFIXES:
                digest, size = self._hashes.of(path)
                url = "/static/" + path.relative_to(self.static).as_posix()
                out.append(PrecacheEntry(url, digest, size))
        info = json.dumps(self.runtime_info(), sort_keys=True).encode()
        out.append(
            PrecacheEntry("/offline/runtime.json", hashlib.sha256(info).hexdigest()[:16], len(info))
        )
        data, digest = self.core.build()
        out.append(PrecacheEntry(f"/offline/core/{digest}.zip", digest, len(data)))
        if not runtime_missing(self.runtime):
            for name in PIN["files"]:
                size = (self.runtime / name).stat().st_size
                gz = self.runtime / f"{name}.gz"
                wire = gz.stat().st_size if gz.is_file() else size
                # The URL names the version, and the folder holds the checked package.
                out.append(PrecacheEntry(self.runtime_url() + name, PIN["integrity"][7:23], wire))
        return out

    def manifest(self) -> dict[str, Any]:
        """The list the service worker receives: ``version`` and ``entries``."""
        entries = self.entries()
        version = hashlib.sha256(
            "\n".join(f"{e.url} {e.hash}" for e in entries).encode()
        ).hexdigest()[:16]
        return {
            "version": version,
            "entries": [{"url": e.url, "hash": e.hash, "bytes": e.bytes} for e in entries],
        }


NAMES = {
    "en": ("Basra: the card game", "Basra", "Play Basra with friends and bots, online or off."),
    "ar": ("بصرة: لعبة الورق", "بصرة", "العب البصرة مع الأصدقاء والروبوتات، متصلًا أو دون اتصال."),
}


def manifest(lang: str = "en") -> dict[str, Any]:
    """The web app manifest, in English or Arabic (both names ride along in either)."""
    lang = lang if lang in NAMES else "en"
    name, short, description = NAMES[lang]
    icons = [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ]
    other = "ar" if lang == "en" else "en"
    return {
        "id": "/",
        "name": name,
        "short_name": short,
        "description": description,
        "lang": lang,
        "dir": "rtl" if lang == "ar" else "ltr",
        # The manifest localization proposal (W3C): the other language's names.
        "name_localized": {other: NAMES[other][0]},
        "short_name_localized": {other: NAMES[other][1]},
        "start_url": f"/?lang={lang}",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": icons,
        "shortcuts": [
            {
                "name": "العب دون اتصال" if lang == "ar" else "Play offline",
                "url": f"/offline?lang={lang}",
                "icons": [{"src": "/static/icons/icon-192.png", "sizes": "192x192"}],
            }
        ],
    }


# ---------------------------------------------------------------- checking uploads


class ForgedRecordError(ValueError):
    """An uploaded game that is not what its page would have played: ``code`` and why."""

    def __init__(self, code: str, message: str, **where: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where


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
    bots_checked: tuple[int, ...] = field(default=())
    """The bot plays compared with what that bot plays there (see :func:`check_offline_game`)."""

    @property
    def status(self) -> str:
        """``over`` or ``unfinished``."""
        return "over" if self.finished else "unfinished"


def _forged(code: str, message: str, **where: Any) -> ForgedRecordError:
    return ForgedRecordError(code, message, **where)


def _pure_python_bot(level: str, seed: int) -> Any:
    """The bot at ``level`` as the page runs it: the pure-Python search (no kernel)."""
    spec = LEVELS[level]
    if spec.startswith("ismcts"):
        spec += ",kernel=0"
    return make_bot(spec, seed)


def check_offline_game(
    upload: Mapping[str, Any], *, verify_bots: tuple[str, ...] = ("easy", "medium")
) -> CheckedGame:
    """Replay an uploaded offline game as the page would have played it, or say what is wrong.

    ``upload`` is ``{"save": <the page's save>, "result": {"scores", "winner",
    "finished"}, "seat": n}``: the save is the record with the offline table's
    settings (:mod:`basra.server.offline_engine`), the result is what the page
    showed, the seat is the uploader's. Checked: the record reads and every play
    is legal (RECORD.md replay); the first dealer and each round's pack are the
    ones the game's seed gives (``basra-play/SEED/...``, as
    :class:`basra.tui.session.Session` deals); the seats are people and offline
    bot levels with the names the page gives bots; each play of a bot whose
    level is in ``verify_bots`` is the move that bot makes there; and the
    page's result is the replay's. Raises :class:`ForgedRecordError`.

    ``hard`` is not in ``verify_bots`` by default: its search seeds each decision
    from ``hash()`` of a tuple, which is 32 bits wide in the page's WebAssembly
    and 64 here, so the same seed searches differently (its plays are still
    checked for legality). ``easy`` and ``medium`` draw from string seeds, the
    same everywhere.
    """
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
        raise _forged("bad_record", f"the record does not read: {exc}") from None
    if len(record.rounds) > MAX_ROUNDS:
        raise _forged("bad_record", f"a game has at most {MAX_ROUNDS} rounds")
    players = record.players
    if not isinstance(kinds, list) or len(kinds) != players:
        raise _forged("bad_record", f"'seats' must name {players} seats")
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
        if not 1 <= len(name) <= 24 or not name.isprintable() or name != " ".join(name.split()):
            raise _forged(
                "bad_name", f"seat {seat + 1}'s name must be 1 to 24 printable characters"
            )
    seat = upload.get("seat", people[0])
    if type(seat) is not int or seat not in people:
        raise _forged("bad_seat", f"'seat' must be a seat a person played: {people}")

    dealer_rng = random.Random(f"basra-play/{seed}/dealer")
    if record.first_dealer != dealer_rng.randrange(players):
        raise _forged("wrong_deal", f"seed {seed} does not give this first dealer")
    try:
        state = record.new_state()
    except RecordError as exc:
        raise _forged("bad_record", str(exc)) from None
    rules = state.rules
    bots = {
        index: _pure_python_bot(kind, seed)
        for index, kind in enumerate(kinds)
        if kind != PERSON and kind in verify_bots
    }
    checked: list[int] = []
    total = 0
    for index, entry in enumerate(record.rounds):
        if state.is_over:
            raise _forged("bad_record", "the record goes on after the game ended", round=index)
        pack = shuffled_pack(rules, random.Random(f"basra-play/{seed}/deal/{index}"))
        try:
            recorded = [parse_card(text) for text in entry.pack]
        except CardError as exc:
            raise _forged("bad_record", f"round {index + 1}: {exc}", round=index) from None
        if recorded != pack:
            raise _forged(
                "wrong_deal", f"round {index + 1} was not dealt from the game's seed", round=index
            )
        state.deal(pack)
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
            bot = bots.get(mover)
            if bot is not None:
                bot.rng.seed(f"basra-play/{seed}/bot/{index}/{number}")
                expected = bot.choose(view_of(state, mover))
                if expected != move:
                    raise _forged(
                        "wrong_bot_play",
                        f"round {index + 1}, play {number + 1}: {names[mover]} plays "
                        f"{expected.text()} there, not {move.text()}",
                        **where,
                    )
                checked.append(total)
            state.push(move)
            total += 1
    result = result_json(state)
    claimed = upload.get("result")
    if not isinstance(claimed, Mapping):
        raise _forged("bad_request", "'result' must say what the page showed: scores, winner")
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
        bots_checked=tuple(checked),
    )


# ---------------------------------------------------------------- keeping uploads


@dataclass(frozen=True)
class StoredGame:
    """Where a kept offline game is: its table id, and whether this upload created it."""

    table_id: str
    created: bool


class OfflineGames(Protocol):
    """Keeps checked offline games: the second phase, on the server master's table lifecycle.

    ``keep(identity, game)`` stores ``game`` as a table of its own, the way a live
    table is stored, so that "My games" (``GET /api/games``), the record, the replay
    and the coach's review read it as any other game:

    - the table: ``game.record``'s variant, rule overrides, players, teams and
      first dealer; status ``over`` or, for an unfinished game, a status that is
      neither live nor rated (``unfinished``: never joined, never abandoned by the
      autopilot, never settled); ``rated`` false; marked as an offline game;
    - the seats: ``identity`` in ``game.uploader_seat`` under its name; other
      people (pass and play) by name with no identity; bots by level
      (``game.kinds``);
    - the events: one ``deal`` per round (its pack, ``game.record["rounds"][i]
      ["pack"]``) and one ``play`` per move text, in order, as the master appends
      them for a live table (timestamps from ``game.created_at`` on);
    - idempotent: the same ``(identity, game.client_id)`` again returns the table
      kept the first time (``created`` false). An unfinished game that went on is
      uploaded again under the same id: when the stored events are a prefix of the
      new ones, the new events are appended (and the status updated); otherwise
      the stored game stands and ``created`` is false.

    Never rated, never counted in ratings or leaderboards.
    """

    async def keep(self, identity: str, game: CheckedGame) -> StoredGame:
        """Store the game (or find it stored) and say where it is."""
        ...


Authenticate = Callable[[str | None], Awaitable[Any]]
"""A token to its caller (an object with ``identity``) or ``None``; may raise for a bad token."""


def _refuse(code: str, message: str, status: int, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def offline_router(
    static: Path,
    *,
    authenticate: Authenticate | None = None,
    games: OfflineGames | None = None,
    runtime: Path | None = None,
) -> APIRouter:
    """The routes of offline play (see the module docstring).

    ``static`` is the page's folder; ``authenticate`` turns a bearer token into
    a caller; ``games`` keeps uploads (without it an upload is checked by
    nobody and refused as ``upload_unavailable``); ``runtime`` is where Pyodide
    was unpacked (:func:`runtime_folder` by default).
    """
    folder = runtime or runtime_folder()
    core = CoreSources()
    precache = Precache(static, core, folder)
    worker_source = static / "offline" / "sw.js"
    index = static / "index.html"
    router = APIRouter()

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        listing = await asyncio.to_thread(precache.manifest)
        body = (
            f"// Precache list of this deploy (basra.server.offline.Precache)\n"
            f"self.PRECACHE = {json.dumps(listing)};\n\n" + worker_source.read_text("utf-8")
        )
        return Response(
            body,
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest(lang: str = "en") -> Response:
        return Response(
            json.dumps(manifest(lang), ensure_ascii=False),
            media_type="application/manifest+json",
            headers={"Cache-Control": "no-cache"},
        )

    @router.get("/offline/runtime.json", include_in_schema=False)
    async def runtime_json() -> Response:
        info = await asyncio.to_thread(precache.runtime_info)
        return JSONResponse(info, headers={"Cache-Control": "no-cache"})

    @router.get("/offline/core/{name}", include_in_schema=False)
    async def core_zip(request: Request, name: str) -> Response:
        data, digest = await asyncio.to_thread(core.build)
        if name != f"{digest}.zip":
            return _refuse(
                "no_such_file",
                "this server runs other rules now: reload the page for the current ones",
                404,
                current=f"/offline/core/{digest}.zip",
            )
        headers = {"Cache-Control": "public, max-age=31536000, immutable", "ETag": f'"{digest}"'}
        if request.headers.get("if-none-match") == headers["ETag"]:
            return Response(status_code=304, headers=headers)
        return Response(data, media_type="application/zip", headers=headers)

    @router.get("/offline/pyodide/{version}/{name}", include_in_schema=False)
    async def pyodide_file(request: Request, version: str, name: str) -> Response:
        if version != PIN["version"] or name not in PIN["files"]:
            return _refuse("no_such_file", f"no runtime file {version}/{name}", 404)
        if runtime_missing(folder):
            return _refuse(
                "not_installed",
                f"offline play is not installed on this server (Pyodide {PIN['version']}): "
                "scripts/setup fetches it",
                404,
            )
        media = {
            ".mjs": "text/javascript",
            ".wasm": "application/wasm",
            ".zip": "application/zip",
            ".json": "application/json",
        }[Path(name).suffix]
        headers = {
            "Cache-Control": "public, max-age=31536000, immutable",
            "Vary": "Accept-Encoding",
        }
        gz = folder / f"{name}.gz"
        if gz.is_file() and "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return FileResponse(gz, media_type=media, headers=headers)
        return FileResponse(folder / name, media_type=media, headers=headers)

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    router.add_api_route("/offline", page, methods=["GET"], include_in_schema=False)
    router.add_api_route("/offline/g/{game_id}", page, methods=["GET"], include_in_schema=False)

    @router.post("/api/offline/games")
    async def upload(request: Request) -> Response:
        caller = await authenticate(_bearer(request)) if authenticate is not None else None
        if caller is None:
            return _refuse("signed_out", "sign in first: POST /api/identity gives a token", 401)
        if games is None:
            return _refuse(
                "upload_unavailable",
                "this server cannot keep offline games yet: they stay on this device",
                503,
            )
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            return _refuse("too_large", f"an offline game must be at most {MAX_UPLOAD} bytes", 413)
        try:
            data = json.loads(body)
        except ValueError:
            return _refuse("bad_request", "the body must be JSON", 400)
        if not isinstance(data, dict):
            return _refuse("bad_request", "the body must be a JSON object", 400)
        try:
            game = await asyncio.to_thread(check_offline_game, data)
        except ForgedRecordError as exc:
            return _refuse(exc.code, exc.message, 422, **exc.where)
        stored = await games.keep(caller.identity, game)
        return JSONResponse(
            {
                "id": stored.table_id,
                "url": f"/replay/{stored.table_id}",
                "status": game.status,
                "scores": game.result["score"],
                "winner": game.result["winner"],
                "rated": False,
                "bots_checked": len(game.bots_checked),
            },
            status_code=201 if stored.created else 200,
        )

    return router


def iter_core_modules(core: CoreSources) -> Iterator[tuple[str, str]]:
    """(name in the zip, source) of every Python module the page receives."""
    for name, path in core.files():
        if name.endswith(".py"):
            yield name, path.read_text(encoding="utf-8")
