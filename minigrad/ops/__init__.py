"""Built-in operations, one ``Function`` subclass each (PyTorch's node names)."""
