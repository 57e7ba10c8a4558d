"""Metrics counted as plain numbers (issue 34: a plan never imports prometheus_client); the
Prometheus view, the snapshot and a saved-then-loaded report show the same samples."""

from __future__ import annotations

from engine import diagnostics
from engine.metrics import Metrics


def _used() -> Metrics:
    m = Metrics(clock=lambda: 5.0)
    m.tool_call("flights", 12.0, False)
    m.tool_call("flights", 0.0, True)
    m.computed_call("transit", False)
    m.tool_error("weather", "timeout")
    m.node_done("planner", 700)
    m.first_event(3.2)
    m.run_done(900, True)
    m.active_runs.inc()
    m.cost_usd.labels("planner").observe(0.25)
    return m


def test_the_prometheus_view_reads_the_plain_numbers() -> None:
    m = _used()
    registry = m.registry
    assert registry.get_sample_value("tool_calls_total", {"tool": "flights"}) == 2.0
    assert registry.get_sample_value("tool_latency_ms_bucket", {"tool": "flights", "le": "1.0"}) == 1.0
    assert registry.get_sample_value("tool_latency_ms_bucket", {"tool": "flights", "le": "20.0"}) == 2.0
    assert registry.get_sample_value("tool_latency_ms_bucket", {"tool": "flights", "le": "+Inf"}) == 2.0
    assert registry.get_sample_value("tool_latency_ms_sum", {"tool": "flights"}) == 12.0
    assert registry.get_sample_value("node_latency_ms_count", {"node": "planner"}) == 1.0
    assert registry.get_sample_value("active_runs") == 1.0 and m.active_runs.get() == 1.0
    snapshot = m.snapshot()
    assert {"labels": {"tool": "weather", "reason": "timeout"}, "total": 1.0} in snapshot["tool_errors"]
    assert {"labels": {"node": "planner"}, "sum": 0.25} in snapshot["cost_usd"]
    assert snapshot["feasibility_violations"] == [{"labels": {"type": "timing"}, "total": 0.0}]  # listed at 0


def test_a_report_saved_without_the_prometheus_text_shows_it_when_loaded(tmp_path, monkeypatch) -> None:
    m = _used()
    monkeypatch.setattr(diagnostics, "METRICS", m)
    saved = diagnostics.collect(prometheus=False)
    assert "prometheus" not in saved and saved["series"]
    diagnostics.save(saved, tmp_path / "d.json")
    loaded = diagnostics.load(tmp_path / "d.json")
    assert loaded is not None and "series" not in loaded
    assert loaded["prometheus"] == m.prometheus_text() and loaded["metrics"] == m.snapshot()


def test_the_snapshot_and_the_prometheus_view_render_the_same_samples() -> None:
    m = _used()
    registry, rows = m.registry, 0
    for family, samples in m.snapshot().items():
        for sample in samples:
            labels = sample.pop("labels")
            (suffix, value), = sample.items()
            name = family if suffix == "value" else f"{family}_{suffix}"
            assert registry.get_sample_value(name, labels) == value, (name, labels)
            rows += 1
    assert rows > 20
