"""Road miles between two points of a corridor, by their progress along it.

Without routing, a stretch of corridor is ``factor`` road miles per corridor mile (1.3 off a named
route, the fixture's driven/polyline ratio on one). Once real routes are known
(:mod:`.driving`), each routed day says how many road miles its stretch of corridor really takes:
those stretches count at their measured density, the rest at the factor. The planner balances
and caps days on this measure, so a winding day is planned shorter and a straight one longer.
"""

from __future__ import annotations


class RoadMeasure:
    def __init__(self, factor: float, pieces: tuple[tuple[float, float, float], ...] = ()) -> None:
        self.factor = factor
        self.pieces = _disjoint(pieces)  # (lo, hi, road miles per corridor mile), sorted, not overlapping

    def at(self, p: float) -> float:
        """Road miles from progress 0 to ``p``."""
        miles = self.factor * p
        for lo, hi, density in self.pieces:
            if p <= lo:
                break
            miles += (density - self.factor) * (min(p, hi) - lo)
        return miles

    def between(self, a: float, b: float) -> float:
        return abs(self.at(b) - self.at(a))


def _disjoint(pieces) -> tuple[tuple[float, float, float], ...]:
    """Sorted by start; a piece overlapping an earlier one keeps only the part after it."""
    out: list[tuple[float, float, float]] = []
    for lo, hi, density in sorted((min(a, b), max(a, b), d) for a, b, d in pieces):
        if out and lo < out[-1][1]:
            lo = out[-1][1]
        if hi > lo:
            out.append((lo, hi, density))
    return tuple(out)
