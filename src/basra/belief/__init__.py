"""A learned model of who holds what: each unseen card's chance of being in each hand.

:mod:`basra.belief.features` encodes what a seat knows, :mod:`basra.belief.model`
runs the network on it with numpy (or plain Python), :mod:`basra.belief.data` makes
training examples from self-play and :mod:`basra.belief.report` measures a belief
against today's hand reading. The search's sampler draws deals in proportion to it
(``ismcts:belief=1``, docs/BOTS.md). Training is :mod:`basra.train.belief`
(``basra train belief``, PyTorch).
"""
