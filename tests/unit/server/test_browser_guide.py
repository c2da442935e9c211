"""The Neo4j Browser guide: one clickable slide per saved query with the demo parameters, the
post-connect command, and the generated neo4j.conf that allow-lists the API host."""

from __future__ import annotations

import html
import re
from pathlib import Path

import cypher
from graph.runtime import LocalNeo4j, RuntimeConfig
from server.browser_guide import DEMO_PARAMS, guide_html, post_connect_cmd
from server.runtime import api_url, browser_allowlist, browser_url
from server.settings import Settings


def test_guide_has_a_runnable_block_per_saved_query() -> None:
    page = guide_html("http://127.0.0.1:8000/")
    blocks = [
        html.unescape(b)
        for b in re.findall(r'<pre mode="cypher" class="runnable">(.*?)</pre>', page, re.S)
    ]
    for name in cypher.names("browser"):
        body = "\n".join(
            line for line in cypher.load(name).splitlines() if not line.startswith("//")
        ).strip()
        assert body in blocks, f"{name} has no clickable block"
    assert f":params {DEMO_PARAMS}" in blocks
    assert ":style http://127.0.0.1:8000/browser-guide/hippograph.grass" in blocks
    assert page.count("<slide") == len(cypher.names("browser")) + 2
    assert "<script" not in page  # Browser strips scripts anyway; the guide needs none


def test_demo_params_cover_every_saved_query() -> None:
    used = set()
    for name in cypher.names("browser"):
        used |= set(re.findall(r"\$(\w+)", cypher.load(name)))
    preset = set(re.findall(r"(\w+):", DEMO_PARAMS))
    assert used <= preset


def test_post_connect_styles_sets_params_then_plays() -> None:
    cmd = post_connect_cmd("http://127.0.0.1:8000")
    parts = [p.strip() for p in cmd.split("; ")]
    assert parts == [
        "style http://127.0.0.1:8000/browser-guide/hippograph.grass",
        f"params {DEMO_PARAMS}",
        "play http://127.0.0.1:8000/browser-guide",
    ]
    assert ";" not in DEMO_PARAMS  # Browser splits the setting on ';'


def test_generated_conf_allow_lists_the_api_and_opens_the_guide(tmp_path: Path) -> None:
    rt = LocalNeo4j(
        RuntimeConfig(
            home=tmp_path,
            password="pw-123456",
            browser_allowlist="127.0.0.1",
            browser_post_connect_cmd=post_connect_cmd("http://127.0.0.1:8000"),
        )
    )
    rt.write_config()
    conf = dict(
        line.split("=", 1)
        for line in (tmp_path / "neo4j/conf/neo4j.conf").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert conf["browser.remote_content_hostname_whitelist"] == "127.0.0.1"
    assert conf["browser.post_connect_cmd"].endswith("play http://127.0.0.1:8000/browser-guide")
    assert conf["client.allow_telemetry"] == "false"


def test_urls_for_a_person() -> None:
    s = Settings(api_host="0.0.0.0", api_port=8001, neo4j_http_port=7475, neo4j_bolt_port=7688)
    assert api_url(s) == "http://127.0.0.1:8001"
    assert browser_url(s) == "http://127.0.0.1:7475/browser/?dbms=bolt://neo4j@127.0.0.1:7688"
    assert browser_allowlist(s) == "127.0.0.1, localhost"
    assert browser_allowlist(Settings(api_host="localhost")) == "localhost"
