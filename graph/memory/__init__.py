"""The memory pipelines: write (messages → facts), read (query → context) and background jobs."""
