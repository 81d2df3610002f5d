"""One package per seed system; each lists its public API in ``__all__``."""
