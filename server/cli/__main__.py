"""``python -m server.cli``: the same command line as the ``hippograph`` script."""

from server.cli import main

if __name__ == "__main__":
    main()
