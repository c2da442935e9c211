"""Neo4j access for Hippograph: executor, schema, local runtime, providers and the memory pipelines.

The Neo4j driver imports pandas and pyarrow when they are installed (for ``Result.to_df`` and
``to_arrow``, which Hippograph never calls): 1.3-1.5 s of CPU in every process that imports it,
a third of an API process's imports (pandas comes with the ``gds`` extra). So the driver is
imported here, before any module of this package, with the two hidden for that one import;
``import pandas`` afterwards works as usual.
"""

import sys as _sys


def _import_driver() -> None:
    hidden = [name for name in ("pandas", "pyarrow") if name not in _sys.modules]
    for name in hidden:
        _sys.modules[name] = None  # type: ignore[assignment]  # import fails: the driver skips it
    try:
        import neo4j  # noqa: F401
    finally:
        for name in hidden:
            if _sys.modules.get(name, False) is None:
                del _sys.modules[name]


_import_driver()
