"""A deterministic, varied markdown document of a requested size (document-ingest tests)."""

from __future__ import annotations

import random


def make_markdown(target_bytes: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    people = [
        "Clara Rezende",
        "Rafael Costa",
        "Ana Lima",
        "Bruno Alves",
        "Marta Sousa",
        "Tiago Nunes",
        "Irene Castro",
        "Paulo Mendes",
    ]
    cities = ["Porto", "Lisbon", "Braga", "Coimbra", "Faro", "Madrid", "Paris", "Berlin"]
    hobbies = ["hiking", "the cello", "chess", "surfing", "painting", "cycling", "baking"]
    orgs = ["Acme", "Globex", "Initech", "Umbrella Labs", "Hooli"]
    parts, size, n = [], 0, 0
    while size < target_bytes:
        n += 1
        p, q = rng.sample(people, 2)
        sec = (
            f"## Chapter {n}: {p}\n\n"
            f"{p} lives in {rng.choice(cities)} and works at {rng.choice(orgs)} as an engineer. "
            f"{p} enjoys {rng.choice(hobbies)} on weekends. {q} is a close friend of {p}. "
            f"In year {2000 + n % 25}, {p} visited {rng.choice(cities)} with {q}.\n\n"
            f"- {q} prefers {rng.choice(hobbies)}.\n- Meeting number {n} took place in "
            f"{rng.choice(cities)}.\n\n"
        )
        parts.append(sec)
        size += len(sec.encode())
    return "# Team Chronicle\n\n" + "".join(parts)
