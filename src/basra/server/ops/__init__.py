"""Operations: what running the app for strangers needs (docs/DEPLOY.md).

- :mod:`~basra.server.ops.config`: the operator's one TOML file (``basra serve --config``);
- :mod:`~basra.server.ops.metrics`: ``GET /metrics`` (Prometheus, across processes);
- :mod:`~basra.server.ops.logs`: JSON log lines with a request or table id;
- :mod:`~basra.server.ops.drain`: a rolling restart's drain (SIGTERM or ``basra admin drain``);
- :mod:`~basra.server.ops.backup`: ``basra admin backup`` / ``restore`` and the replay check.
"""
