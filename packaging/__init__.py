"""How to ship the app: one-folder build, desktop entry, install script."""
