"""Words refused in what people write: the list lives in :mod:`basra.server.words`.

Kept so that ``basra serve`` and older callers may go on saying
``wordlist.configure(wordlist.WordList.from_files(...))``; the policy (cleaning,
confusable skeletons, the list and each kind of text) is :mod:`basra.server.words`'s.
"""

from __future__ import annotations

from basra.server.words import WordList, configure, normalise, refused, shipped, shipped_words

__all__ = ["WordList", "configure", "normalise", "refused", "shipped", "shipped_words"]
