"""Rule settings (RULES.md B4/B5), the 15 variant presets, and custom rule files.

A variant is data: a frozen :class:`Rules` object. Code never asks which variant
it is playing; it asks the setting. Overrides replace a setting's whole value
(B5.10) and are checked strictly (B5.13): a bad name or value raises
:class:`RulesError` naming the setting and what it accepts.

>>> rules = preset("egyptian")
>>> rules.majority_bonus, rules.majority_tie, rules.target
(30, 'abeyance', 101)
>>> rules.with_overrides({"target": 121}).target
121
>>> preset("egyptian").with_overrides({"capture_policy": "most"})
Traceback (most recent call last):
...
basra.rules.RulesError: setting 'capture_policy' must be one of 'max_cards', 'any_maximal', \
not 'most'
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from basra.cards import (
    JACK,
    KING,
    QUEEN,
    RANK_NAMES,
    SEVEN_DIAMONDS,
    CardError,
    card_text,
    parse_card,
    parse_rank,
    value_of,
)

__all__ = [
    "DEFAULT_VARIANT",
    "PRESETS",
    "SETTING_NAMES",
    "VARIANT_DESCRIPTIONS",
    "VARIANT_NAMES",
    "Rules",
    "RulesError",
    "load_rules_file",
    "parse_overrides",
    "preset",
    "resolve_rules",
    "rules_file_name",
]

DEFAULT_VARIANT = "egyptian"


class RulesError(ValueError):
    """An unknown variant or setting, or a setting value that is not allowed."""


_CHOICES: dict[str, tuple[Any, ...]] = {
    "pack": (52, 44),
    "hand_size": (4, 5, 6),
    "capture_policy": ("max_cards", "any_maximal"),
    "seven_diamonds": ("plain", "egyptian", "yemeni", "ethiopian", "no_basra"),
    "basra_mode": ("clear", "lone_match", "lone_match_or_sum"),
    "basra_value": ("flat", "double_face"),
    "majority_tie": ("each", "none", "abeyance"),
    "end_tie": ("extra_rounds", "draw"),
    "direction": ("ccw", "cw"),
}
_INTEGERS = ("basra_points", "jack_on_lone_jack", "majority_bonus", "target")
_BOOLEANS = ("basra_on_last_play",)
_BURY_NAMES = {"J": "J", "7D": "7D"}

# Capture moves cached per (capture_policy, 7♦ sweeps): see GameState.legal_moves.
_CAPTURE_CACHES: dict[tuple[str, bool], dict[int, Any]] = {}

STANDARD_POINTS: Mapping[str, int] = {"A": 1, "J": 1, "2C": 2, "10D": 3}


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete set of rule settings (RULES.md B4).

    Construct presets with :func:`preset` and change them with
    :meth:`with_overrides`, which checks every value. ``point_cards`` and
    ``face_values`` are stored as sorted tuples of ``(key, value)`` so that a
    ``Rules`` is hashable; :meth:`to_dict` gives the JSON form.
    """

    pack: int = 52
    hand_size: int = 4
    bury: tuple[str, ...] = ("J",)
    capture_policy: str = "max_cards"
    seven_diamonds: str = "plain"
    basra_mode: str = "clear"
    basra_value: str = "flat"
    basra_points: int = 10
    face_values: tuple[tuple[str, int], ...] = ()
    jack_on_lone_jack: int = 0
    basra_on_last_play: bool = True
    point_cards: tuple[tuple[str, int], ...] = (("A", 1), ("J", 1), ("2C", 2), ("10D", 3))
    majority_bonus: int = 3
    majority_tie: str = "each"
    target: int = 100
    end_tie: str = "extra_rounds"
    direction: str = "cw"

    # Tables derived from the settings, for the engine's hot paths.
    card_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Points of each card 0-51 at the end of a round."""
    basra_values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """What a basra made by each card 0-51 is worth (jacks: see jack_on_lone_jack)."""
    bury_mask: int = field(init=False, repr=False, compare=False)
    """The cards re-buried from the first floor."""
    sweepers: int = field(init=False, repr=False, compare=False)
    """The cards that take the whole floor when played: the jacks, and a sweeping 7♦."""
    lone_seven: bool = field(init=False, repr=False, compare=False)
    """True when any card but a jack takes a lone 7♦ (``seven_diamonds: ethiopian``)."""
    reach: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """For each card, the floor cards that decide what it captures (the whole
    floor for a sweeper; same rank and smaller numerals for a numeral)."""
    combiners: int = field(init=False, repr=False, compare=False)
    """The cards that may capture by summing: numerals, except a sweeping 7♦."""
    grab: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """For each card, which single floor card in its reach it takes: its own rank
    for a summing numeral, anything for a sweeper or a picture (whose reach is
    only its rank)."""
    capture_cache: dict[int, Any] = field(init=False, repr=False, compare=False)
    """The engine's cache of capture moves, shared by all rules that capture alike."""
    point_masks: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    """(points, mask of the cards worth them) for every non-zero card value."""
    engine_cache: dict[str, Any] = field(init=False, repr=False, compare=False)
    """What engines compile from these rules, kept with them (the compiled kernel's tables)."""

    def __post_init__(self) -> None:
        derived = _derive(self)
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @property
    def sweeping_seven(self) -> bool:
        """True when a played 7♦ sweeps the floor like a jack."""
        return self.seven_diamonds != "plain"

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # Pickled as its settings: the derived tables and engine caches are rebuilt.
        return _from_settings, (self.to_dict(),)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as JSON values, by the names records and files use."""
        out: dict[str, Any] = {}
        for name in SETTING_NAMES:
            value = getattr(self, name)
            if name in ("point_cards", "face_values"):
                value = dict(value)
            elif name == "bury":
                value = list(value)
            out[name] = value
        return out

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Rules:
        """These rules with some settings replaced (each checked; B5.10, B5.13)."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise RulesError(f"rule overrides must be an object of settings, not {overrides!r}")
        changes = {}
        for name, value in overrides.items():
            changes[name] = _check_setting(name, value)
        return replace(self, **changes)

    def overrides_from(self, base: Rules) -> dict[str, Any]:
        """The settings that differ from ``base``, as JSON values."""
        mine, theirs = self.to_dict(), base.to_dict()
        return {name: mine[name] for name in SETTING_NAMES if mine[name] != theirs[name]}


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.init)


def _from_settings(settings: dict[str, Any]) -> Rules:
    """Rules from :meth:`Rules.to_dict` (unpickling)."""
    return Rules().with_overrides(settings)


def _derive(rules: Rules) -> dict[str, Any]:
    """The engine's tables for a set of rules (the ``init=False`` fields of :class:`Rules`)."""
    points = dict(rules.point_cards)
    card_points = tuple(
        points.get(card_text(card), points.get(RANK_NAMES[card >> 2], 0)) for card in range(52)
    )
    faces = dict(rules.face_values)
    basra_values = []
    for card in range(52):
        rank = card >> 2
        if rules.basra_value == "flat" or rank == JACK:
            basra_values.append(rules.basra_points)
        elif rank in (QUEEN, KING):
            face = faces.get(RANK_NAMES[rank])
            basra_values.append(rules.basra_points if face is None else 2 * face)
        else:
            basra_values.append(2 * value_of(card))
    jacks = 0b1111 << (4 * JACK)
    bury_mask = (jacks if "J" in rules.bury else 0) | (
        1 << SEVEN_DIAMONDS if "7D" in rules.bury else 0
    )
    sweepers = jacks | (1 << SEVEN_DIAMONDS if rules.seven_diamonds != "plain" else 0)
    reach = []
    for card in range(52):
        rank = card >> 2
        if sweepers >> card & 1:
            reach.append((1 << 52) - 1)
        elif rank >= QUEEN:
            reach.append(0b1111 << (4 * rank))
        else:
            reach.append((1 << (4 * (rank + 1))) - 1)
    by_points: dict[int, int] = {}
    for card, value in enumerate(card_points):
        if value:
            by_points[value] = by_points.get(value, 0) | 1 << card
    kind = (rules.capture_policy, rules.seven_diamonds != "plain")
    return {
        "card_points": card_points,
        "basra_values": tuple(basra_values),
        "bury_mask": bury_mask,
        "sweepers": sweepers,
        "lone_seven": rules.seven_diamonds == "ethiopian",
        "reach": tuple(reach),
        "combiners": ((1 << 40) - 1) & ~sweepers,
        "grab": tuple(
            0b1111 << (4 * (card >> 2)) if card < 40 and not sweepers >> card & 1 else (1 << 52) - 1
            for card in range(52)
        ),
        "capture_cache": _CAPTURE_CACHES.setdefault(kind, {}),
        "point_masks": tuple(sorted(by_points.items())),
        "engine_cache": {},
    }


def _setting_error(name: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"setting {name!r} must be {allowed}, not {_shown(value)}")


def _shown(value: Any) -> str:
    """A setting's value as its JSON text (TOML can hold dates, which JSON cannot)."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_setting(name: Any, value: Any) -> Any:
    """Check one setting's JSON value and return it in the stored form."""
    if name not in SETTING_NAMES:
        raise RulesError(f"unknown setting {name!r}; the settings are: {', '.join(SETTING_NAMES)}")
    if name in _CHOICES:
        choices = _CHOICES[name]
        if not any(value == c and type(value) is type(c) for c in choices):
            allowed = ", ".join(json.dumps(c).replace('"', "'") for c in choices)
            shown = _shown(value).replace('"', "'")
            raise RulesError(f"setting {name!r} must be one of {allowed}, not {shown}")
        return value
    if name in _INTEGERS:
        minimum = 1 if name == "target" else 0
        if not _is_int(value) or value < minimum:
            kind = "a positive integer" if minimum else "a non-negative integer"
            raise _setting_error(name, value, kind)
        return value
    if name in _BOOLEANS:
        if not isinstance(value, bool):
            raise _setting_error(name, value, "true or false")
        return value
    if name == "bury":
        return _check_bury(value)
    if name == "face_values":
        return _check_face_values(value)
    if name == "point_cards":
        return _check_point_cards(value)
    raise AssertionError(name)  # pragma: no cover - every setting is handled above


def _check_bury(value: Any) -> tuple[str, ...]:
    allowed = 'a list of "J" and/or "7D"'
    if not isinstance(value, list):
        raise _setting_error("bury", value, allowed)
    names = set()
    for item in value:
        if not isinstance(item, str) or item.strip().upper() not in _BURY_NAMES:
            raise _setting_error("bury", value, allowed)
        names.add(_BURY_NAMES[item.strip().upper()])
    return tuple(n for n in ("J", "7D") if n in names)


def _check_face_values(value: Any) -> tuple[tuple[str, int], ...]:
    allowed = 'an object like {"Q": 3, "K": 4} (keys Q and K, integers >= 0)'
    if value is None:
        return ()  # absent (B4): Q and K clears score basra_points
    if not isinstance(value, Mapping):
        raise _setting_error("face_values", value, allowed)
    out = {}
    for key, points in value.items():
        rank = key.strip().upper() if isinstance(key, str) else None
        if rank not in ("Q", "K") or not _is_int(points) or points < 0 or rank in out:
            raise _setting_error("face_values", value, allowed)
        out[rank] = points
    return tuple(sorted(out.items(), key=lambda kv: kv[0] == "K"))


def _check_point_cards(value: Any) -> tuple[tuple[str, int], ...]:
    allowed = 'an object of ranks or cards to points, like {"A": 1, "2C": 2} (integers >= 0)'
    if not isinstance(value, Mapping):
        raise _setting_error("point_cards", value, allowed)
    ranks: dict[str, int] = {}
    cards: dict[str, int] = {}
    for key, points in value.items():
        if not isinstance(key, str) or not _is_int(points) or points < 0:
            raise _setting_error("point_cards", value, allowed)
        try:
            name, names = RANK_NAMES[parse_rank(key)], ranks
        except CardError:
            try:
                name, names = card_text(parse_card(key)), cards
            except CardError:
                raise RulesError(
                    f"setting 'point_cards' has key {key!r}, which is neither a rank "
                    "(A 2 ... 10 J Q K) nor a card (like 10D)"
                ) from None
        if name in names:
            raise RulesError(f"setting 'point_cards' names {name} twice (again as {key!r})")
        names[name] = points
    order = {name: i for i, name in enumerate(RANK_NAMES)}
    ranked = sorted(ranks.items(), key=lambda kv: order[kv[0]])
    carded = sorted(cards.items(), key=lambda kv: parse_card(kv[0]))
    return tuple(ranked + carded)


def _points(mapping: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return _check_point_cards(dict(mapping))


# The presets of RULES.md B4. Every preset has capture_policy max_cards,
# basra_points 10, basra_on_last_play true and end_tie extra_rounds.
_BASE = Rules()
_EGYPTIAN = replace(
    _BASE,
    bury=("J", "7D"),
    seven_diamonds="egyptian",
    jack_on_lone_jack=20,
    majority_bonus=30,
    majority_tie="abeyance",
    target=101,
    direction="ccw",
)
_LEBANESE = replace(
    _BASE,
    hand_size=6,
    basra_mode="lone_match_or_sum",
    jack_on_lone_jack=10,
    majority_tie="none",
    target=101,
    direction="ccw",
)
_DOUBLE = replace(
    _BASE,
    basra_value="double_face",
    majority_tie="none",
    target=101,
    direction="ccw",
)

PRESETS: Mapping[str, Rules] = {
    "cypriot_bastra": _BASE,
    "cypriot_classic": replace(
        _BASE,
        jack_on_lone_jack=50,
        point_cards=_points({"A": 1, "J": 1, "2C": 2, "10D": 4}),
    ),
    "egyptian": _EGYPTIAN,
    "egyptian_121": replace(_EGYPTIAN, target=121),
    "egyptian_mona_russel": replace(
        _EGYPTIAN,
        seven_diamonds="no_basra",
        point_cards=_points({**STANDARD_POINTS, "7D": 1}),
        majority_bonus=3,
        majority_tie="none",
        target=100,
    ),
    "saba_alkoomi": replace(
        _EGYPTIAN, seven_diamonds="no_basra", majority_bonus=3, majority_tie="none"
    ),
    "yemeni": replace(_EGYPTIAN, seven_diamonds="yemeni"),
    "ethiopian": replace(
        _EGYPTIAN,
        seven_diamonds="ethiopian",
        jack_on_lone_jack=0,
        majority_bonus=3,
        majority_tie="none",
        target=52,
    ),
    "lebanese": _LEBANESE,
    "lebanese_ashush": replace(_LEBANESE, basra_mode="lone_match"),
    "lebanese_alefb": replace(_LEBANESE, basra_mode="lone_match"),
    "palestinian": replace(_DOUBLE, pack=44, jack_on_lone_jack=0),
    "jordanian": replace(_DOUBLE, face_values=(("Q", 10), ("K", 10)), jack_on_lone_jack=20),
    "syrian": replace(_DOUBLE, face_values=(("Q", 3), ("K", 4)), jack_on_lone_jack=25),
    "syrian_homsi": replace(_DOUBLE, pack=44, jack_on_lone_jack=25),
}

VARIANT_NAMES: tuple[str, ...] = tuple(PRESETS)

VARIANT_DESCRIPTIONS: Mapping[str, str] = {
    "cypriot_bastra": "Cypriot Bastra: clear-the-floor basra worth 10, 3 for cards "
    "(a tie gives each side 3), to 100, played clockwise.",
    "cypriot_classic": "Cypriot Bastra as in the older Wikipedia text: 10♦ is worth 4 "
    "and a jack on a lone jack scores 50.",
    "egyptian": "Egyptian Basra: the 7♦ sweeps like a jack (a basra on a small numeral "
    "floor), 30 for cards held in abeyance on a tie, to 101.",
    "egyptian_121": "Egyptian Basra to 121, as played on Jawaker.",
    "egyptian_mona_russel": "Egyptian (Mona Russel): the 7♦ sweeps but never scores a "
    "basra and is worth a point; 3 for cards; to 100.",
    "saba_alkoomi": "Sab'a Alkoomi: the 7♦ sweeps but never scores a basra; 3 for cards; to 101.",
    "yemeni": "Yemeni Basra: the 7♦ scores a basra on a floor under 10, on tens and "
    "pictures, or on equal groups under 10; 30 for cards.",
    "ethiopian": "Ethiopian Basra: the 7♦ scores on a floor up to 10 or equal groups; "
    "a lone 7♦ gives any card a basra; 3 for cards; to 52.",
    "lebanese": "Lebanese Basra: 6-card hands; a basra is matching a lone card, or "
    "summing a lone card and the card trailed on it.",
    "lebanese_ashush": "Lebanese Basra (Ashush): 6-card hands; a basra only by "
    "matching a lone card.",
    "lebanese_alefb": "Lebanese Basra as told for children (alefb): 6-card hands; a "
    "basra only by matching a lone card.",
    "palestinian": "Palestinian Basra: 44 cards without queens and kings; a basra "
    "scores twice the capturing card's face value.",
    "jordanian": "Jordanian Basra (Haddad): 52 cards; a basra scores twice the face "
    "value, queens and kings counting 10; jack on lone jack 20.",
    "syrian": "Syrian Basra: a basra scores twice the face value (Q = 3, K = 4); jack "
    "on lone jack 25.",
    "syrian_homsi": "Syrian Basra (Homsi): 44 cards; a basra scores twice the face "
    "value; jack on lone jack 25.",
}


def preset(name: str) -> Rules:
    """The rules of a variant preset by its B4 name.

    >>> preset("palestinian").pack
    44
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown variant {name!r}; the variants are: {', '.join(VARIANT_NAMES)}"
        ) from None


def parse_overrides(text: str) -> dict[str, Any]:
    """Rule overrides given as a JSON object on the command line."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(f"rules must be a JSON object of settings or a file: {exc}") from None
    if not isinstance(value, dict):
        raise RulesError(f"rules must be a JSON object of settings, not {text!r}")
    return value


def load_rules_file(path: str | Path) -> tuple[str | None, dict[str, Any]]:
    """Read a custom variant file (``.toml`` or ``.json``).

    The file names the preset it starts from and the settings it changes::

        variant = "egyptian"     # optional: the preset to start from
        name = "House rules"     # optional, for people
        [rules]
        target = 61
        majority_tie = "none"

    A file without ``variant`` or ``rules`` keys is read as a flat object of
    settings. Returns ``(variant or None, overrides)``; the overrides are checked
    when applied.
    """
    path = Path(path)
    data = _read_rules_file(path)
    if "variant" in data or "rules" in data:
        variant = data.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise RulesError(f"rules file {str(path)!r}: 'variant' must be a variant name")
        unknown = set(data) - {"variant", "rules", "name", "description"}
        if unknown:
            raise RulesError(
                f"rules file {str(path)!r}: unknown key(s) {', '.join(sorted(unknown))}; "
                "use 'variant', 'name', 'description' and a 'rules' table of settings"
            )
        overrides = data.get("rules") or {}
        if not isinstance(overrides, dict):
            raise RulesError(f"rules file {str(path)!r}: 'rules' must be a table of settings")
        return variant, overrides
    return None, data


def rules_file_name(path: str | Path) -> str | None:
    """The ``name`` a custom variant file gives its rules, for people (``None``: none).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     house = os.path.join(folder, "house.toml")
    ...     _ = open(house, "w").write('variant = "egyptian"\\nname = "House rules"\\n')
    ...     rules_file_name(house)
    'House rules'
    """
    name = _read_rules_file(Path(path)).get("name")
    return (name.strip() or None) if isinstance(name, str) else None


def _read_rules_file(path: Path) -> dict[str, Any]:
    """The object a ``.toml`` or ``.json`` rules file holds (checked to be one)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"cannot read rules file {str(path)!r}: {exc.strerror}") from None
    try:
        if path.suffix.lower() == ".toml":
            data: Any = tomllib.loads(raw.decode("utf-8"))
        else:
            data = json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"rules file {str(path)!r} is not valid: {exc}") from None
    if not isinstance(data, dict):
        raise RulesError(f"rules file {str(path)!r} must hold an object of settings")
    return data


def resolve_rules(
    variant: str | None, rules: str | Mapping[str, Any] | None
) -> tuple[str, dict[str, Any], Rules]:
    """Resolve a variant name and a ``--rules`` argument to checked rules.

    ``rules`` is a mapping of overrides, inline JSON text, or the path of a
    custom variant file (which may name the variant itself). Returns the
    variant name, the overrides as given, and the resulting :class:`Rules`.
    """
    overrides: dict[str, Any] = {}
    if isinstance(rules, Mapping):
        overrides = dict(rules)
    elif isinstance(rules, str) and rules.strip():
        if rules.lstrip().startswith("{"):
            overrides = parse_overrides(rules)
        else:
            file_variant, overrides = load_rules_file(rules)
            if file_variant is not None:
                if variant is not None and variant != file_variant:
                    raise RulesError(
                        f"--variant {variant} conflicts with variant {file_variant!r} "
                        f"in rules file {rules!r}"
                    )
                variant = file_variant
    name = variant if variant is not None else DEFAULT_VARIANT
    return name, overrides, preset(name).with_overrides(overrides)
