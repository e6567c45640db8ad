"""Rating pools: variant families and table kinds (RULES.md B4 presets grouped by how they play).

People and bots are rated per pool, ``family/kind``: a family groups presets that
play alike (Egyptian with its sweeping 7♦ and big majority, Lebanese with
lone-card basras, Cypriot with clear-the-floor basras, the double-face basras
of the Syrian, Palestinian and Jordanian games); a kind is the table (2, 3 or
4 individual players, or 4 in two teams). The web app's ratings and the bots'
calibration (``basra bots --calibrate``) use these, and nothing else.

>>> family_of("syrian_homsi"), table_kind(4, True), pool_of("yemeni", 3, False)
('double_face', '2v2', 'egyptian/3p')
"""

from __future__ import annotations

from collections.abc import Mapping

from basra.rules import PRESETS

__all__ = ["FAMILIES", "FAMILY_OF", "KINDS", "family_of", "pool_of", "table_kind"]

FAMILIES: Mapping[str, tuple[str, ...]] = {
    "egyptian": (
        "egyptian",
        "egyptian_121",
        "egyptian_mona_russel",
        "saba_alkoomi",
        "yemeni",
        "ethiopian",
    ),
    "lebanese": ("lebanese", "lebanese_ashush", "lebanese_alefb"),
    "cypriot": ("cypriot_bastra", "cypriot_classic"),
    "double_face": ("syrian", "syrian_homsi", "palestinian", "jordanian"),
}
"""Variant families (rating pools) and the presets in each."""

FAMILY_OF: Mapping[str, str] = {v: f for f, variants in FAMILIES.items() for v in variants}
"""The family of each preset."""

if set(FAMILY_OF) != set(PRESETS):  # pragma: no cover - a new preset must join a family
    raise RuntimeError(f"presets without a family: {sorted(set(PRESETS) - set(FAMILY_OF))}")

KINDS: Mapping[str, tuple[int, bool]] = {
    "2p": (2, False),
    "3p": (3, False),
    "4p": (4, False),
    "2v2": (4, True),
}
"""Table kinds: players and teams."""


def family_of(variant: str) -> str:
    """The family (rating pool) of a preset."""
    return FAMILY_OF[variant]


def table_kind(players: int, teams: bool) -> str:
    """The kind of a table in :data:`KINDS`."""
    return "2v2" if teams else f"{players}p"


def pool_of(variant: str, players: int, teams: bool) -> str:
    """The rating pool ``family/kind`` of a table."""
    return f"{family_of(variant)}/{table_kind(players, teams)}"
