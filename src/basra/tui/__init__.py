"""Play Basra in the terminal (``basra play``), built on Textual.

- :mod:`basra.tui.session`: the table, the deals, the bots, saving and resuming
  (no Textual: usable and testable on its own).
- :mod:`basra.tui.text`: cards, plays and score sheets in words and colours.
- :mod:`basra.tui.app`: the Textual app (:class:`~basra.tui.app.BasraApp`).

Importing this package does not import Textual; :func:`run` does.
"""

from __future__ import annotations

from pathlib import Path

from basra.tui.session import Seat, Session, SessionError

__all__ = ["Seat", "Session", "SessionError", "run"]


def run(
    session: Session,
    *,
    pace: float = 1.0,
    save_path: Path | None = None,
    resumed_from: Path | None = None,
    theme_name: str | None = None,
) -> str | None:
    """Play ``session`` in the terminal until the person leaves; returns a farewell message.

    ``resumed_from`` is the file the game was loaded from: saving there again
    replaces it without asking (any other file is never replaced silently).
    """
    from basra.tui.app import BasraApp

    app = BasraApp(
        session,
        pace=pace,
        save_path=save_path,
        resumed_from=resumed_from,
        theme_name=theme_name,
    )
    try:
        return app.run()
    finally:
        session = app.session
        session.close()
