"""The page's text colours keep WCAG AA contrast (4.5:1) on the felt at its lightest
and on the panels. axe-core cannot judge text over the felt's gradients (it reports
them as incomplete), so the colours of style.css are checked here."""

from __future__ import annotations

import re

from tests.web.helpers import ROOT

STYLE = (ROOT / "src" / "basra" / "server" / "static" / "style.css").read_text(encoding="utf-8")


def colour(name: str) -> str:
    """A custom property of :root (a #rrggbb colour)."""
    found = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", STYLE)
    assert found, name
    return found.group(1)


def luminance(hex_colour: str) -> float:
    """WCAG 2.1 relative luminance."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_on_the_felt_and_the_panels_reads_at_4_5_to_1() -> None:
    for background in ("felt-light", "felt", "felt-dark", "panel-solid"):
        for text in ("ink", "muted", "gold", "red-text"):
            ratio = contrast(colour(text), colour(background))
            assert ratio >= 4.5, f"{text} on {background}: {ratio:.2f}:1"


def test_the_worked_example() -> None:
    assert round(contrast("#ffffff", "#000000"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48
