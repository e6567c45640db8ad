"""The coach: what each move of a game was worth, and why (reviews and hints).

:mod:`basra.coach.analysis` estimates every legal move of a decision from what
that seat knew; :mod:`basra.coach.review` grades every decision of a game with
it, and :mod:`basra.coach.hints` suggests a move and says why, both from the
same analysis. The coach builds on the bots' search (the compiled kernel when
it is active) and never shows a card the seat could not see, except in the
clearly labelled hindsight analysis of a finished game.
"""

from basra.coach.analysis import Analysis, MoveEstimate, analyse, analyse_hindsight
from basra.coach.hints import Hint, hint
from basra.coach.review import GameReview, review_record

__all__ = [
    "Analysis",
    "GameReview",
    "Hint",
    "MoveEstimate",
    "analyse",
    "analyse_hindsight",
    "hint",
    "review_record",
]
