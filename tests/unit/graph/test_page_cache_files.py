"""The local warm-up's file pass (``graph.page_cache.read_files``)."""

from __future__ import annotations

from pathlib import Path

from graph.page_cache import read_files


def test_every_file_under_the_folder_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "schema" / "index").mkdir(parents=True)
    (tmp_path / "neostore").write_bytes(b"x" * 3000)
    (tmp_path / "schema" / "index" / "segment.vec").write_bytes(b"y" * 5000)
    (tmp_path / "empty").write_bytes(b"")
    planned: list[int] = []
    chunks: list[int] = []
    size = read_files(tmp_path, planned=planned.append, progress=chunks.append, chunk=1024)
    assert size == 8000 == sum(chunks) and planned == [8000]
    assert max(chunks) == 1024 and len(chunks) == 3 + 5  # 3000 and 5000 bytes in 1 KiB reads


def test_a_file_removed_while_reading_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"a" * 10)
    (tmp_path / "b").write_bytes(b"b" * 20)  # merged away by the server meanwhile
    (tmp_path / "c").write_bytes(b"c" * 30)

    def merge_away(_: int) -> None:
        (tmp_path / "b").unlink(missing_ok=True)

    assert read_files(tmp_path, progress=merge_away) == 40


def test_an_empty_folder_reads_nothing(tmp_path: Path) -> None:
    assert read_files(tmp_path) == 0
