"""Export the GraphQL SDL: ``python -m gql.export`` writes ``gql/schema.graphql``;
``--check`` exits 1 when the committed file differs from the code (CI)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from strawberry.printer import print_schema

from gql.schema import schema

SDL_PATH = Path(__file__).with_name("schema.graphql")


def current_sdl() -> str:
    return print_schema(schema).rstrip() + "\n"


def main(argv: list[str]) -> int:
    sdl = current_sdl()
    if "--check" in argv:
        committed = SDL_PATH.read_text() if SDL_PATH.exists() else ""
        if committed != sdl:
            diff = difflib.unified_diff(
                committed.splitlines(), sdl.splitlines(), "committed", "code", lineterm=""
            )
            print(
                "gql/schema.graphql is out of date; run `make schema`:\n"
                + "\n".join(list(diff)[:80])
            )
            return 1
        print("gql/schema.graphql is up to date")
        return 0
    SDL_PATH.write_text(sdl)
    print(f"wrote {SDL_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
