"""The weather tool's answer for a date range: a value the executor can cache (L1 and L2)."""

from __future__ import annotations


from engine.models import Value, WeatherDay


class WeatherSeries(Value):
    days: list[WeatherDay]

    def as_cached(self) -> "WeatherSeries":
        """Served from the cache: each day says so (seed §3.7) and the cache rung served it (§12)."""
        from .executor import mark_cached
        return WeatherSeries.model_construct(days=[mark_cached(d) for d in self.days])
