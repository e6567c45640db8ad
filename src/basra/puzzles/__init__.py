"""Puzzles from real games: mined, proven, themed, rated, and shown without a hidden card.

- :mod:`basra.puzzles.mine`: :func:`~basra.puzzles.mine.mine_record` finds the puzzles
  of a game record (or of a reviewed game).
- :mod:`basra.puzzles.solve`: the exact proof, an exhaustive solve of the rest of the
  round in every arrangement of the hidden cards.
- :mod:`basra.puzzles.themes`: what a puzzle is about.
- :mod:`basra.puzzles.format`: the ``basra-puzzle/1`` line (:class:`~basra.puzzles.format.Puzzle`)
  and the set that ships with the package (:func:`~basra.puzzles.format.shipped_puzzles`).
- :mod:`basra.puzzles.public`: what a person is shown: before (the one public view),
  an attempt, and after.

Everything but mining is standard library only (the engine and the coach's account of
a move) and runs under Pyodide; mining also runs the coach's analysis and the bots.
"""
