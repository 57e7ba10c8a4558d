"""Currency rates: weekly fixture rows, linear interpolation, as-of T-1 (seed §4.1 FX)."""

from __future__ import annotations

from bisect import bisect_right
from datetime import date, timedelta
from typing import Protocol

from engine.catalog.schema import RawFX
from engine.errors import InputError
from engine.models import FXRate

from .cache_variant import variant_digest
from .provenance import stamp
from .requests import FXRequest


class FXTool(Protocol):
    def rate(self, request: FXRequest) -> FXRate: ...


class FixtureFX:
    """Rates as USD per unit; ``overrides`` pins a currency's rate (chaos and eval scenarios)."""

    name = "fx"

    def __init__(self, raw: RawFX, overrides: dict[str, float] | None = None) -> None:
        self._rows = {cur: ([d for d, _ in rows], [r for _, r in rows]) for cur, rows in raw.weekly.items()}
        self._source = raw.source_url
        self._overrides = {k.upper(): v for k, v in (overrides or {}).items()}
        self.cache_variant = variant_digest(self._overrides)  # a pinned rate changes the answer

    def rate(self, request: FXRequest) -> FXRate:
        if request.to_currency != "USD":
            raise InputError("currency", "only conversions to USD are supported")
        cur = request.from_currency.upper()
        as_of = request.as_of - timedelta(days=1)  # T-1: yesterday's published rate
        value = self._lookup(cur, as_of)
        payload = {"from": cur, "as_of": as_of.isoformat(), "rate": value}
        return FXRate(from_currency=cur, rate=value, as_of=as_of,
                      provenance=stamp("fx", payload, source_url=self._source, ref_id=f"{cur}USD"))

    def _lookup(self, cur: str, day: date) -> float:
        if cur == "USD":
            return 1.0
        if cur in self._overrides:
            return self._overrides[cur]
        if cur not in self._rows:
            raise InputError("currency", f"no exchange rate for {cur}; known: USD, {', '.join(sorted(self._rows))}")
        dates, rates = self._rows[cur]
        i = bisect_right(dates, day)
        if i == 0:
            return rates[0]
        if i == len(dates):
            return rates[-1]
        d0, d1 = dates[i - 1], dates[i]
        frac = (day - d0).days / (d1 - d0).days
        return round(rates[i - 1] + (rates[i] - rates[i - 1]) * frac, 6)
