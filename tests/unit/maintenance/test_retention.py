"""Retention cut-offs: one per kind with a time-to-live; 0 keeps a kind forever."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.memory.jobs import RetentionConfig
from graph.memory.maintenance.kinds import MAINTENANCE_KINDS
from graph.memory.maintenance.retention import RETENTION_KINDS, cutoffs
from server.composition import default_handlers, jobs_config
from server.settings import Settings

NOW = datetime(2026, 5, 1, tzinfo=UTC)


def test_defaults_keep_messages_and_audit_text_forever() -> None:
    got = cutoffs(NOW, RetentionConfig())
    assert set(got) == {"receipts", "jobs", "dedup"}
    assert got["receipts"] == NOW - timedelta(days=30) and got["dedup"] == NOW - timedelta(days=7)


def test_every_kind_can_be_set_and_disabled() -> None:
    every = RetentionConfig(
        events_s=60, receipts_s=1, jobs_s=2, dedup_s=3, audit_text_s=4, audits_s=5
    )
    assert set(cutoffs(NOW, every)) == set(RETENTION_KINDS)
    assert cutoffs(NOW, every)["events"] == NOW - timedelta(minutes=1)
    none = RetentionConfig(receipts_s=0, jobs_s=0, dedup_s=0)
    assert cutoffs(NOW, none) == {}


def test_settings_reach_the_job_and_the_schedule() -> None:
    cfg = jobs_config(
        Settings(retention_events_s=86_400, retention_audit_text_s=7, schedule_retention_s=600)
    )
    assert cfg.retention.events_s == 86_400 and cfg.retention.audit_text_s == 7
    assert cfg.schedule["retention"] == 600
    assert jobs_config(Settings()).schedule["retention"] > 0
    assert "retention" in MAINTENANCE_KINDS and "retention" in default_handlers()
