"""The catalogues of words: one per language, read by the page, the terminal and the server.

Every word a person reads (the page's, the terminal's, the server's errors and notices) is
a message in ``basra/server/static/locales/<lang>.json``: one JSON object per language,
key to ICU MessageFormat message. The page fetches the same files (they are served and
precached from ``static/``), so there is one catalogue per language and nothing else to
translate; adding a language is adding a file (:func:`languages` lists what is there).

**Why ICU MessageFormat in JSON** (not gettext PO): the page has no build step and reads
JSON natively; a message keeps its whole sentence with its plural branches inside it
(``{n, plural, one {# card} other {# cards}}``), which is what Arabic's six CLDR forms
need, where gettext's ``msgid_plural`` is one English-shaped pair per sentence;
translation tools (Weblate, Crowdin, Lokalise, Transifex) read "i18next/ICU JSON"
files as they are.

**Messages**: ``{name}`` is a value (a number is written in the language's digits and
decimal mark), ``{n, plural, zero {...} one {...} two {...} few {...} many {...} other
{...}}`` picks the branch of the language's CLDR plural rules (:func:`plural_form`;
``=2 {...}`` matches exactly and ``#`` is the number),
``{x, select, a {...} other {...}}`` picks by value; a quote starts literal text before
``{``, ``}`` or ``#``, and ``''`` is one quote (ICU's apostrophe mode). :func:`parse`
reads this subset and refuses anything else, so a broken message fails the tests
(``tests/test_catalogues.py``), not a page.

Each catalogue also describes its language: ``language_name`` (in itself),
``language_dir`` (``ltr`` or ``rtl``), ``number_locale`` (the page's ``Intl`` locale of
its numbers: ``ar-EG`` writes Arabic-Indic digits), and, for Python, which has no
``Intl``, ``plural_rules`` (CLDR's, as Babel gives them), ``decimal_mark`` and
``digits``.

>>> message("en", "count_card", n=1), message("en", "count_card", n=3)
('1 card', '3 cards')
>>> message("ar", "count_card", n=2), message("ar", "count_card", n=11)
('ورقتان', '١١ ورقة')
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeAlias

__all__ = [
    "CATALOGUES",
    "Argument",
    "Part",
    "catalogue",
    "check_language",
    "default_language",
    "format_number",
    "languages",
    "message",
    "parse",
    "plural_form",
]

CATALOGUES = Path(__file__).parent / "server" / "static" / "locales"
"""The folder of the catalogues (served to the page as ``/static/locales/``)."""


@cache
def languages() -> dict[str, str]:
    """Every language with a catalogue: code to its name in itself, English first."""
    codes = sorted(p.stem for p in CATALOGUES.glob("*.json"))
    codes.sort(key=lambda code: code != "en")
    return {code: catalogue(code).get("language_name", code) for code in codes}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (key to message), read once."""
    data = json.loads((CATALOGUES / f"{check_language(lang)}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"the {lang} catalogue is not a JSON object")
    return {str(key): str(value) for key, value in data.items()}


def check_language(lang: str) -> str:
    """``lang`` if a catalogue has it; otherwise a ValueError naming those there are."""
    if not re.fullmatch(r"[a-z]{2,3}", lang) or not (CATALOGUES / f"{lang}.json").is_file():
        codes = sorted(p.stem for p in CATALOGUES.glob("*.json"))
        raise ValueError(f"language must be one of {', '.join(codes)}, not {lang!r}")
    return lang


def default_language(environ: dict[str, str] | None = None) -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    ``LANGUAGE``: ``el_GR.UTF-8`` is Greek) when a catalogue has it, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        for value in env.get(name, "").split(":"):
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            if code and code not in ("c", "posix") and code in languages():
                return code
    return "en"


@dataclass(frozen=True)
class Argument:
    """A hole of a message: ``{name}``, or ``{name, plural|select, ...}``."""

    name: str
    kind: str = ""
    options: tuple[tuple[str, tuple[Part, ...]], ...] = ()
    offset: int = 0


Part: TypeAlias = "str | Argument | None"
"""A piece of a parsed message: text, an argument, or ``None`` for a plural's ``#``."""


@cache
def parse(text: str) -> tuple[Part, ...]:
    """A message's parts; a ValueError saying where it is malformed."""
    at = 0

    def fail(what: str) -> ValueError:
        return ValueError(f"{what} at {at} in {text!r}")

    def literal(in_plural: bool) -> str:
        nonlocal at
        out = []
        while at < len(text):
            c = text[at]
            if c == "'":
                following = text[at + 1 : at + 2]
                if following == "'":
                    out.append("'")
                    at += 2
                    continue
                if following and following in "{}#|":
                    close = text.find("'", at + 1)
                    stop = len(text) if close < 0 else close
                    out.append(text[at + 1 : stop])
                    at = stop + 1
                    continue
            if c in "{}" or (c == "#" and in_plural):
                break
            out.append(c)
            at += 1
        return "".join(out)

    def word() -> str:
        nonlocal at
        while at < len(text) and text[at].isspace():
            at += 1
        found = re.match(r"[^\s,{}]+", text[at:])
        if not found:
            raise fail("a name expected")
        at += len(found.group())
        while at < len(text) and text[at].isspace():
            at += 1
        return found.group()

    def parts(in_plural: bool) -> tuple[Part, ...]:
        nonlocal at
        out: list[Part] = []
        while at < len(text) and text[at] != "}":
            piece = literal(in_plural)
            if piece:
                out.append(piece)
            if at < len(text) and text[at] == "#":
                out.append(None)
                at += 1
            elif at < len(text) and text[at] == "{":
                out.append(argument())
        return tuple(out)

    def argument() -> Argument:
        nonlocal at
        at += 1
        name = word()
        if text[at : at + 1] == "}":
            at += 1
            return Argument(name)
        if text[at : at + 1] != ",":
            raise fail('"," or "}" expected')
        at += 1
        kind = word()
        if kind not in ("plural", "select"):
            raise fail(f"unknown argument type {kind!r}")
        if text[at : at + 1] != ",":
            raise fail('"," expected')
        at += 1
        options: list[tuple[str, tuple[Part, ...]]] = []
        offset = 0
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                raise fail(f"{name!r} is not closed")
            if text[at] == "}":
                at += 1
                break
            selector = word()
            if selector.startswith("offset:"):
                offset = int(selector[7:])
                continue
            if text[at : at + 1] != "{":
                raise fail(f'"{{" expected after {selector!r}')
            at += 1
            options.append((selector, parts(kind != "select")))
            if text[at : at + 1] != "}":
                raise fail(f"branch {selector!r} is not closed")
            at += 1
        if "other" not in dict(options):
            raise fail(f'{name!r} has no "other" branch')
        return Argument(name, kind, tuple(options), offset)

    out = parts(False)
    if at < len(text):
        raise fail('an unbalanced "}"')
    return out


def _operands(value: float) -> dict[str, float]:
    """CLDR's plural operands of a number as written with at most one decimal."""
    text = (
        f"{abs(value):.1f}".rstrip("0").rstrip(".") if value != int(value) else str(abs(int(value)))
    )
    whole, _, fraction = text.partition(".")
    return {
        "n": abs(value),
        "i": int(whole),
        "v": len(fraction),
        "w": len(fraction.rstrip("0")),
        "f": int(fraction or 0),
        "t": int(fraction.rstrip("0") or 0),
        "e": 0,
        "c": 0,
    }


def _holds(condition: str, operands: dict[str, float]) -> bool:
    """Whether a CLDR plural condition (``i in 1 and v in 0``, ``n mod 100 in 3..10``) holds."""
    for alternative in condition.split(" or "):
        if all(_relation(relation, operands) for relation in alternative.split(" and ")):
            return True
    return False


def _relation(relation: str, operands: dict[str, float]) -> bool:
    found = re.fullmatch(
        r"\s*([nivwftec])(?:\s*(?:mod|%)\s*(\d+))?"
        r"\s*(not in|in|within|not within|!=|=)\s*([\d.,\s]+)",
        relation,
    )
    if not found:
        raise ValueError(f"not a CLDR plural relation: {relation!r}")
    operand, modulo, operator, ranges = found.groups()
    value = operands[operand]
    if modulo:
        value = value % int(modulo)
    inside = False
    for item in ranges.split(","):
        low, _, high = item.strip().partition("..")
        inside = inside or (
            float(low) <= value <= float(high or low)
            and ("within" in operator or value == int(value))
        )
    return not inside if operator in ("not in", "not within", "!=") else inside


@cache
def _plural_rules(lang: str) -> tuple[tuple[str, str], ...]:
    rules = catalogue(lang).get("plural_rules", "")
    out = []
    for rule in filter(None, (r.strip() for r in rules.split(";"))):
        form, _, condition = rule.partition(":")
        out.append((form.strip(), condition.strip()))
    return tuple(out)


def plural_form(lang: str, count: float) -> str:
    """The CLDR plural category of ``count`` in ``lang`` (``one``, ``two``, ``few``, ...), by
    its catalogue's ``plural_rules``: CLDR's own conditions, as Babel gives them
    (``Locale.plural_form.rules``; the tests hold each catalogue to Babel's). They are read
    here without Babel because lessons and puzzles also run in the page under Pyodide,
    where only the standard library is."""
    operands = _operands(count)
    for form, condition in _plural_rules(lang):
        if _holds(condition, operands):
            return form
    return "other"


def format_number(value: float, lang: str) -> str:
    """A number as ``lang`` writes it: at most one decimal, none for a whole number, with
    its catalogue's ``decimal_mark`` and ``digits`` (Arabic-Indic in Arabic)."""
    data = catalogue(lang)
    text = f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    digits = data.get("digits", "0123456789")
    return text.replace(".", data.get("decimal_mark", ".")).translate(
        str.maketrans("0123456789", digits)
    )


def _count(value: object) -> float:
    if isinstance(value, (int, float)):
        return value
    digits = str(value).translate(str.maketrans("٠١٢٣٤٥٦٧٨٩٫,", "0123456789..")).strip()
    try:
        return float(re.sub(r"[^\d.+-]", "", digits))
    except ValueError:
        return float("nan")


def _render(parts: tuple[Part, ...], lang: str, params: dict[str, object], count: float) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part is None:
            out.append(format_number(count, lang))
        elif not part.kind:
            value = params.get(part.name)
            if value is None:
                out.append("{" + part.name + "}")
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                out.append(format_number(value, lang))
            else:
                out.append(str(value))
        else:
            options = dict(part.options)
            if part.kind == "select":
                chosen = options.get(str(params.get(part.name)), options["other"])
                out.append(_render(chosen, lang, params, count))
                continue
            n = _count(params.get(part.name)) - part.offset
            exact = options.get(f"={n + part.offset:g}")
            form = plural_form(lang, n) if n == n else "other"
            chosen = exact if exact is not None else options.get(form, options["other"])
            out.append(_render(chosen, lang, params, n))
    return "".join(out)


def message(lang: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang`` (English's where ``lang`` lacks it) with its holes
    filled; a KeyError when English lacks it too."""
    text = catalogue(lang).get(key)
    if text is None:
        lang, text = "en", catalogue("en")[key]
    return _render(parse(text), lang, params, 0)
