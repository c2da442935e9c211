"""HTTP service, settings, CLI and background worker of Hippograph (the composition root)."""
