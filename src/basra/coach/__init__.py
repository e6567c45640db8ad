"""The coach: what each move of a game was worth, and why (reviews and hints).

:mod:`basra.coach.analysis` estimates every legal move of a decision from what
that seat knew. The coach builds on the bots' search (the compiled kernel when
it is active) and never shows a card the seat could not see, except in the
clearly labelled hindsight analysis of a finished game.
"""

from basra.coach.analysis import Analysis, MoveEstimate, analyse, analyse_hindsight

__all__ = ["Analysis", "MoveEstimate", "analyse", "analyse_hindsight"]
