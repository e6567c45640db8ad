"""Training the bots' learned models (PyTorch, imported only when training runs)."""
