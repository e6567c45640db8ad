"""What people do around the tables, each on the table lifecycle, the master's narrow
protocol and its own store repositories, never on another object's internals:

- :mod:`~basra.server.features.quickplay` (with :mod:`~basra.server.features.pairing`):
  the quick-play pool;
- :mod:`~basra.server.features.daily`: the daily deal;
- :mod:`~basra.server.features.tournaments`: arenas, Swiss events and duplicate;
- :mod:`~basra.server.features.botapi`: bot accounts and programs playing through
  ``WS /ws/bot``;
- :mod:`~basra.server.features.reactions`: quick phrases and emoji at tables;
- :mod:`~basra.server.features.talk`: table talk (lines, quick phrases, mutes, silences);
- :mod:`~basra.server.features.reviews`: reviews of finished games and their job queue;
- :mod:`~basra.server.features.accounts`: usernames and passwords;
- :mod:`~basra.server.features.profiles`: profiles and leaderboards;
- :mod:`~basra.server.features.offline` (with
  :mod:`~basra.server.features.offline_check` and
  :mod:`~basra.server.features.offline_files`): the installable app's files, and
  games played offline, checked and kept as tables;
- :mod:`~basra.server.features.lessons`, :mod:`~basra.server.features.puzzles` and
  :mod:`~basra.server.features.mistakes`: lessons with progress, puzzles with ratings
  and streaks, and puzzles mined from people's own reviewed games.

Each one's routes are an ``APIRouter`` in :mod:`basra.server.transport.routes`, and
the environment (:mod:`basra.server.env`) wires it once.
"""
