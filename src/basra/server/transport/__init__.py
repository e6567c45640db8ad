"""The transport: it parses, authenticates and delegates, and nothing else.

- :mod:`~basra.server.transport.socket`: the one socket pump (hello, admission, flood
  control) every WebSocket route goes through;
- :mod:`~basra.server.transport.auth`: the one bearer-token dependency;
- :mod:`~basra.server.transport.errors`: the one error body, status and close code;
- :mod:`~basra.server.transport.guard`: body size and the HTTP rate per address;
- :mod:`~basra.server.transport.deps`: what routes may ask the environment for, and
  request bodies as forms;
- :mod:`~basra.server.transport.routes`: the routes, one ``APIRouter`` per part.
"""
