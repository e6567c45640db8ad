"""Profiles and leaderboards: read-only, from the store.

A profile shows a person's finished games only (results are recorded when a
game ends, or when a rated game is decided by a forfeit, and listed once the
table is no longer in play), so nothing of a game in play is shown. It has
the ratings per pool, the rating history (for the page's chart), the totals
with basras per round, and ``review_accuracy``: the coach's mean accuracy over
the person's reviewed games (null without any; see :data:`ReviewAccuracy`), and
reputation's ``finished`` (the share of games finished, null for a newcomer) with, on
the person's own page only, ``playban`` (the wait before their next rated game, or
null; see :data:`ReputationOf` and :mod:`basra.server.features.reputation`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from basra.rules import PRESETS
from basra.server.errors import ProtocolError
from basra.server.features.accounts import username_key
from basra.server.store.protocols import IdentityStore, PlayerStore
from basra.server.store.rows import ResultRow
from basra.server.table.ratings import (
    EXTERNAL,
    FAMILIES,
    FAMILY_OF,
    KINDS,
    bot_ratings,
    rating_json,
    table_kind,
)

__all__ = [
    "HISTORY_LIMIT",
    "Profiles",
    "ReputationOf",
    "ReviewAccuracy",
    "check_board_query",
]

HISTORY_LIMIT = 500
"""Results read for a profile: the newest 50 are listed, all of them drawn in the chart."""
GAMES_LISTED = 50
BOARD_LIMIT = 100

ReviewAccuracy = Callable[[str], Awaitable[dict[str, Any] | None]]
"""Where a profile's ``review_accuracy`` comes from: given an identity id, the
coach's ``{"mean": percent, "games": reviewed games}``, or None without reviews."""
ReputationOf = Callable[[str, bool], Awaitable[dict[str, Any]]]
"""Where a profile's reputation comes from: given an identity id and whether the page is
the person's own, the fields to add (``finished``, and ``playban`` on their own page)."""


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_request", message, {"field": field})


def _kind_json(kind: str) -> dict[str, Any]:
    players, teams = KINDS[kind]
    return {"kind": kind, "players": players, "teams": teams}


def _game_json(result: ResultRow) -> dict[str, Any]:
    rating = None
    if result.rated and result.mu_before is not None and result.mu_after is not None:
        rating = {
            "before": rating_json(result.mu_before, result.sigma_before or 0.0),
            "after": rating_json(result.mu_after, result.sigma_after or 0.0),
        }
    return {
        "id": result.table_id,
        "variant": result.variant,
        "family": result.family,
        **_kind_json(result.kind),
        "seat": result.seat,
        "rated": result.rated,
        "outcome": result.outcome,
        "place": result.place,
        "score": result.score,
        "rounds": result.rounds,
        "basras": result.basras,
        "ended_at": result.ended_at,
        "rating": rating,
    }


def check_board_query(query: Mapping[str, str]) -> tuple[str, str, int]:
    """The family, kind and limit of ``?variant=V&players=N[&teams=1][&limit=L]``.

    ``variant`` is a preset or a family name. Refusals are ``bad_request``
    naming the field.

    >>> check_board_query({"variant": "syrian", "players": "4", "teams": "1"})
    ('double_face', '2v2', 50)
    """
    variant = query.get("variant", "")
    if variant in FAMILIES:
        family = variant
    elif variant in FAMILY_OF:
        family = FAMILY_OF[variant]
    else:
        raise _bad(
            "variant",
            f"variant must be a variant ({', '.join(PRESETS)}) or a family "
            f"({', '.join(FAMILIES)}), not {variant[:40]!r}",
        )
    players = query.get("players", "")
    if players not in ("2", "3", "4"):
        raise _bad("players", f"players must be 2, 3 or 4, not {players[:10]!r}")
    teams = query.get("teams", "0")
    if teams not in ("0", "1", "true", "false"):
        raise _bad("teams", f"teams must be 1 or 0, not {teams[:10]!r}")
    in_teams = teams in ("1", "true")
    if in_teams and players != "4":
        raise _bad("teams", "teams need 4 players")
    limit_text = query.get("limit", "50")
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= BOARD_LIMIT:
        raise _bad("limit", f"limit must be from 1 to {BOARD_LIMIT}, not {limit_text[:10]!r}")
    return family, table_kind(int(players), in_teams), int(limit_text)


class Profiles:
    """Profiles and leaderboards from the players' store; review accuracy from the coach."""

    def __init__(
        self,
        players: PlayerStore,
        people: IdentityStore,
        accuracy: ReviewAccuracy | None = None,
        reputation: ReputationOf | None = None,
    ) -> None:
        self.players = players
        self.people = people
        self.accuracy = accuracy
        """Where ``review_accuracy`` comes from (None: no reviews)."""
        self.reputation = reputation
        """Where ``finished`` and ``playban`` come from (None: not shown)."""

    async def profile(self, identity: str, own: bool = True) -> dict[str, Any]:
        """A person's profile (see docs/WEB.md for every field); ``own``: asked by that
        person (their own page shows their wait before a rated game)."""
        store = self.players
        row = await self.people.load(identity)
        account = await store.account_of(identity)
        results = await store.results_of(identity, limit=HISTORY_LIMIT)
        totals = await store.totals_of(identity)
        games = sum(totals[name] for name in ("win", "loss", "draw", "forfeit"))
        history = [
            {
                "at": r.ended_at,
                "family": r.family,
                **_kind_json(r.kind),
                **rating_json(r.mu_after, r.sigma_after or 0.0),
                "before": rating_json(r.mu_before or 0.0, r.sigma_before or 0.0),
            }
            for r in reversed(results)
            if r.rated and r.mu_after is not None
        ]
        ratings = [
            {"family": r.family, **_kind_json(r.kind), **rating_json(r.mu, r.sigma, r.games)}
            for r in await store.ratings_of(identity)
        ]
        return {
            "name": row.name if row else None,
            "username": account.username if account else None,
            "since": row.created_at if row else None,
            "ratings": ratings,
            "totals": {
                "games": games,
                **totals,
                "basras_per_round": round(totals["basras"] / totals["rounds"], 3)
                if totals["rounds"]
                else None,
            },
            "games": [_game_json(r) for r in results[:GAMES_LISTED]],
            "history": history,
            "review_accuracy": await self.accuracy(identity) if self.accuracy is not None else None,
            **(await self.reputation(identity, own) if self.reputation is not None else {}),
        }

    async def public_profile(self, username: str) -> dict[str, Any]:
        """The profile of an account by its username (guests have no public profile)."""
        account = await self.players.account_by_username(username_key(username[:64]))
        found = account and await self.people.load(account.identity)
        if account is None or not found or found.revoked_at is not None:
            raise ProtocolError("no_such_player", f"nobody has the username {username[:40]!r}")
        return await self.profile(account.identity, own=False)

    async def leaderboard(self, family: str, kind: str, limit: int = 50) -> dict[str, Any]:
        """A pool's leaderboard: people with accounts by ``mu - 3 sigma``, and the bots' ratings."""
        rows = await self.players.leaderboard(family, kind, limit)
        bots = bot_ratings()
        return {
            "family": family,
            "variants": list(FAMILIES[family]),
            **_kind_json(kind),
            "entries": [
                {
                    "place": index + 1,
                    "username": row.username,
                    "name": row.name,
                    **rating_json(row.rating.mu, row.rating.sigma, row.rating.games),
                }
                for index, row in enumerate(rows)
            ],
            "bots": [
                {"level": level, **rating_json(*bots.of(level, family, kind))}
                for level in sorted(
                    (level for level in bots.default if level != EXTERNAL),  # programs: no level
                    key=lambda level: bots.of(level, family, kind),
                )
            ],
            "bots_source": bots.source,
        }
