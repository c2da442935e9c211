"""Demo data: ``python -m seed`` loads the ``demo`` agent (used by ``hippograph up``)."""
