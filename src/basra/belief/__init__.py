"""A learned model of who holds what: each unseen card's chance of being in each hand.

:mod:`basra.belief.features` encodes what a seat knows and :mod:`basra.belief.model`
runs the network on it with numpy (or plain Python). The search's sampler draws deals
in proportion to it (``ismcts:belief=1``, docs/BOTS.md), so it stands below the bots
and imports none of them (it reads plays with :mod:`basra.sim`). What plays the bots to
train it is above them, in :mod:`basra.train`: :mod:`basra.train.belief_data` makes
training examples from self-play, :mod:`basra.train.belief` trains the network
(``basra train belief``, PyTorch) and :mod:`basra.train.belief_report` measures a
belief against today's hand reading.
"""
