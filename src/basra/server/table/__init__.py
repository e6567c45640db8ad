"""The tables: their events, the master that writes them, and their life.

- :mod:`~basra.server.table.reducer`: table events (deal, play) and their text, the one
  reducer (live, catch-up, replay, daily deals, reviews), and the row's transitions
  (join, finish, abandon) as pure functions;
- :mod:`~basra.server.table.master`: :class:`~basra.server.table.master.TableMaster`, the
  only writer of a table's log (check, apply, append, fan out), for people, bots, the
  autopilot and bot programs alike; :mod:`~basra.server.table.peers`: the notices that
  keep other processes' copies of a table in step;
- :mod:`~basra.server.table.frames`: what each client is sent, as values built once per
  seat per version;
- :mod:`~basra.server.table.lifecycle`: the one place tables are created (within caps,
  atomically), opened, started, rematched, abandoned and finished;
  :mod:`~basra.server.table.admission`: the one rule of those caps;
  :mod:`~basra.server.table.operator`: the operator's verbs (close a table, settle a
  person's for good, rename their seats);
- :mod:`~basra.server.table.finish`: settling results and ratings, once, and telling
  subscribers;
- :mod:`~basra.server.table.connections`: the table socket's messages;
  :mod:`~basra.server.table.hints`, :mod:`~basra.server.table.autopilot`;
- :mod:`~basra.server.table.clocks`, :mod:`~basra.server.table.presence`,
  :mod:`~basra.server.table.ratings`, :mod:`~basra.server.table.forms` (the create-table
  form), :mod:`~basra.server.table.queries` (lobby, games, records, replays).
"""
