"""Training the bots' learned models: the self-play data, the training (PyTorch, imported
only when training runs) and the report."""
