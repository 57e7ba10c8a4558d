"""Counters, gauges, histograms and summaries as plain numbers, shown through prometheus_client only
when asked (issue 34: importing prometheus_client is ~0.1 s of every CLI plan, which never shows a
metric). The same constructor and calls as prometheus_client's for what ``engine.metrics`` uses
(``labels``, ``inc``, ``dec``, ``set``, ``observe``; ``get`` reads a value); ``Registry.prometheus``
builds a prometheus_client registry of the same families and samples (no ``_created`` samples)."""

from __future__ import annotations

import threading
from typing import Any, Iterator, Sequence

_LOCK = threading.Lock()  # heartbeats and the engine's thread may count at once


class Registry:
    """The metrics of one ``Metrics``, in the order they were made."""

    def __init__(self) -> None:
        self.metrics: list[Metric] = []
        self._prometheus: Any = None

    def state(self) -> list[list[Any]]:
        """Every series as JSON-able rows ``[metric, labels, value, count, sum, buckets]`` (saved by a
        CLI plan; ``restore`` reads them back for ``diagnostics``)."""
        with _LOCK:
            return [[m.name, list(values), s.value, s.count, s.sum, list(s.buckets)]
                    for m in self.metrics for values, s in m.series.items()]

    def restore(self, rows: list[list[Any]]) -> None:
        by_name = {m.name: m for m in self.metrics}
        for name, values, value, count, total, buckets in rows:
            metric = by_name.get(name)
            if metric is None or len(values) != len(metric.labelnames) or len(buckets) != len(metric.upper_bounds):
                continue  # a metric of another version
            series = metric._series(tuple(values))  # noqa: SLF001 (the registry's own metrics)
            series.value, series.count, series.sum, series.buckets = value, count, total, list(buckets)

    def rows(self) -> Iterator[tuple[Metric, list[tuple[list[str], Series]]]]:
        """Every metric with a copy of its series (label values, numbers), read under the lock: what
        both views — :meth:`snapshot` and the Prometheus collector — render."""
        for metric in self.metrics:
            with _LOCK:
                rows = [(list(values), s.copy()) for values, s in metric.series.items()]
            yield metric, rows

    def snapshot(self) -> dict[str, list[dict]]:
        """Plain values: ``{family: [{"labels": {...}, suffix: v}, ...]}``, the families and samples
        prometheus_client shows (counters' ``total``; histograms' and summaries' ``count`` and ``sum``;
        gauges' ``value``), without buckets and ``_created``."""
        out: dict[str, list[dict]] = {}
        for m, series in self.rows():
            family = m.name[:-len("_total")] if m.kind == "counter" and m.name.endswith("_total") else m.name
            rows = out.setdefault(family, [])
            for values, s in series:
                labels = dict(zip(m.labelnames, values))
                if m.kind == "counter":
                    rows.append({"labels": labels, "total": s.value})
                elif m.kind == "gauge":
                    rows.append({"labels": labels, "value": s.value})
                else:
                    rows += [{"labels": labels, "count": float(s.count)}, {"labels": dict(labels), "sum": s.sum}]
        return out

    def prometheus(self) -> Any:
        """A prometheus_client ``CollectorRegistry`` reading these metrics whenever it is collected."""
        if self._prometheus is None:
            from prometheus_client import CollectorRegistry
            registry = CollectorRegistry(auto_describe=True)
            registry.register(_Collector(self))
            self._prometheus = registry
        return self._prometheus


class Series:
    """One labelled series: a value (counter, gauge) or a count, a sum and bucket counts."""

    __slots__ = ("value", "count", "sum", "buckets")

    def __init__(self, buckets: int = 0) -> None:
        self.value = 0.0
        self.count = 0
        self.sum = 0.0
        self.buckets = [0] * buckets

    def get(self) -> float:
        return self.value

    def copy(self) -> Series:
        twin = Series()
        twin.value, twin.count, twin.sum, twin.buckets = self.value, self.count, self.sum, list(self.buckets)
        return twin


class Metric:
    kind = ""

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = (), *,
                 registry: Registry, buckets: Sequence[float] = ()) -> None:
        self.name, self.documentation, self.labelnames = name, documentation, tuple(labelnames)
        self.upper_bounds = tuple(float(b) for b in buckets)
        self.series: dict[tuple[str, ...], Series] = {}
        self._children: dict[tuple[str, ...], Metric] = {}
        self._own = None if self.labelnames else self._series(())
        registry.metrics.append(self)

    def _series(self, values: tuple[str, ...]) -> Series:
        found = self.series.get(values)
        if found is None:
            found = self.series[values] = Series(len(self.upper_bounds))
        return found

    def labels(self, *values: Any) -> Any:
        """The series of these label values (made at the first ask, as prometheus_client's)."""
        key = tuple(str(v) for v in values)
        child = self._children.get(key)
        if child is None:
            if len(key) != len(self.labelnames):
                raise ValueError(f"{self.name}: labels {self.labelnames}, got {key}")
            child = type(self).__new__(type(self))
            child.__dict__.update(self.__dict__)
            child._own = self._series(key)
            self._children[key] = child
        return child

    def get(self) -> float:
        return self._one().value

    def _one(self) -> Series:
        if self._own is None:
            raise ValueError(f"{self.name}: a labelled metric needs .labels(...)")
        return self._own


class Counter(Metric):
    kind = "counter"

    def inc(self, amount: float = 1) -> None:
        if amount < 0:
            raise ValueError("counters only go up")
        series = self._one()
        with _LOCK:
            series.value += amount


class Gauge(Metric):
    kind = "gauge"

    def inc(self, amount: float = 1) -> None:
        series = self._one()
        with _LOCK:
            series.value += amount

    def dec(self, amount: float = 1) -> None:
        self.inc(-amount)

    def set(self, value: float) -> None:
        self._one().value = float(value)


class Histogram(Metric):
    kind = "histogram"

    def observe(self, amount: float) -> None:
        series = self._one()
        with _LOCK:
            _count(series, amount)
            for i, bound in enumerate(self.upper_bounds):
                if amount <= bound:
                    series.buckets[i] += 1
                    break


class Summary(Metric):
    kind = "summary"

    def observe(self, amount: float) -> None:
        series = self._one()
        with _LOCK:
            _count(series, amount)


def _count(series: Series, amount: float) -> None:
    """One observation's count and sum (the caller holds ``_LOCK``)."""
    series.count += 1
    series.sum += amount


class _Collector:
    """prometheus_client's view of a ``Registry``: one family per metric, samples as its own."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily,
                                            SummaryMetricFamily)
        from prometheus_client.utils import floatToGoString
        for metric, rows in self.registry.rows():
            labels = list(metric.labelnames)
            if metric.kind == "histogram":
                family: Any = HistogramMetricFamily(metric.name, metric.documentation, labels=labels)
                for values, s in rows:
                    running, cumulative = 0, []
                    for bound, n in zip(metric.upper_bounds, s.buckets):
                        running += n
                        cumulative.append((floatToGoString(bound), running))
                    family.add_metric(values, cumulative + [("+Inf", s.count)], s.sum)
            elif metric.kind == "summary":
                family = SummaryMetricFamily(metric.name, metric.documentation, labels=labels)
                for values, s in rows:
                    family.add_metric(values, s.count, s.sum)
            else:
                kind = CounterMetricFamily if metric.kind == "counter" else GaugeMetricFamily
                family = kind(metric.name, metric.documentation, labels=labels)
                for values, s in rows:
                    family.add_metric(values, s.value)
            yield family
