"""The transport: it parses, authenticates and delegates, and nothing else.

- :mod:`~basra.server.transport.socket`: the one socket pump (hello, admission, flood
  control) every WebSocket route goes through;
- :mod:`~basra.server.transport.auth`: the one bearer-token dependency;
- :mod:`~basra.server.transport.errors`: the one error body, status and close code;
- :mod:`~basra.server.transport.guard`: the HTTP rate per address, and every request
  body, on every route, bounded and parsed once before any route sees it;
- :mod:`~basra.server.transport.deps`: what routes may ask the environment for, and
  request bodies as forms;
- :mod:`~basra.server.transport.routes`: the routes, one ``APIRouter`` per part.
"""
