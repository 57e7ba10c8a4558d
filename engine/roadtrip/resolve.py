"""Turning place names into trusted coordinates (seed 000 §4.4–4.5).

Order: a route town of that name inside the corridor; else gazetteer candidates that pass the
trust checks, the corridor (INV-AMBIG-01) and proximity to ``near``; else a second query with
context ("Kingman, AZ, USA", INV-GEO-05). Every candidate considered is kept in ``Town.considered``
and a choice among several equally plausible ones is marked low confidence (INV-AMBIG-02).
"""

from __future__ import annotations

import re
import unicodedata

from engine.errors import AmbiguousPlaceError, InputError
from engine.geocode.dominance import distinct_places, dominant, other_places_note, with_populations
from engine.geocode.models import AMBIGUOUS_BELOW, GeoCandidate, GeocodeRequest
from engine.models.road_trip import DEFAULT_CORRIDOR_MILES
from engine.geocode.trust import EUROPE_COUNTRIES, check_point, geodesic_miles

from .plan import Town

COUNTRY_OF_REGION = {"us": "USA"}
NEAR_TIE_MILES = 25.0
NEAR_TIE_SHARE = 0.85  # a second candidate this close to the best is a tie only the traveller can break
MEANT_ELSEWHERE = 0.25  # an in-corridor match this much weaker than the best overall is not what was meant
DETOUR_MAX_MILES = 200.0


def norm(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    folded = re.sub(r"\bst\.?\s", "saint ", folded)
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", folded).split())


def region_name(c: GeoCandidate) -> str:
    """US state code ("AZ"); elsewhere the region's name ("Bavaria") when the index knows it."""
    if c.country == "US":
        return c.admin1 or ""
    return c.admin1_name or ("" if (c.admin1 or "").isdigit() else c.admin1 or "")


def _head(query: str) -> str:
    """The place name without its ", AZ, USA" qualifiers."""
    return norm(query.split(",")[0])


class PlaceResolver:
    def __init__(self, geocoder, *, region: str | None, corridor=None, corridor_miles: float = DEFAULT_CORRIDOR_MILES,
                 route_towns=()) -> None:
        self.geocoder = geocoder
        self.region = region
        self.corridor = corridor
        self.corridor_miles = corridor_miles
        self.route_towns = list(route_towns)

    def resolve(self, query: str, *, field: str, near: tuple[float, float] | None = None,
                allow_detour: bool = False) -> Town:
        """``allow_detour``: a user-requested stop may lie off the corridor (INV-CORR-02 exception);
        the deviation is logged on the place."""
        town = self._route_town(query, near)
        if town is not None:
            return town
        log: list[str] = []
        rejected: list[GeoCandidate] = []
        self._field = field
        place = self._from_candidates(query, near, log, rejected, allow_detour)
        for context in self._contexts(query, near, rejected) if place is None else []:
            log.append(f"re-geocoding with context: {query}, {context}")
            place = self._from_candidates(f"{query}, {context}", near, log, [], allow_detour)
            if place is not None:
                break
        if place is None:
            where = f" near {self.corridor.name}" if self.corridor is not None and self.corridor.name != "direct" else ""
            raise InputError(field, f"could not find {query!r}{where}" + (f" ({log[-1]})" if log else ""))
        return place

    # -- route towns ---------------------------------------------------------------------------
    def _route_town(self, query: str, near) -> Town | None:
        want = _head(query)
        qualifier = norm(query.split(",")[1]) if "," in query else ""
        hits = [t for t in self.route_towns if norm(t.town.name) == want
                and (not qualifier or qualifier in (norm(t.town.admin1), norm(t.town.country)))]
        if not hits:
            return None
        if near is not None:
            hits.sort(key=lambda t: geodesic_miles(near, (t.town.lat, t.town.lon)))
        t = hits[0].town
        ambiguous = len(hits) > 1 and near is None and not qualifier
        others = ", ".join(f"{h.town.name}, {h.town.admin1}" for h in hits[1:])
        return Town(name=t.name, lat=t.lat, lon=t.lon, admin1=t.admin1, country=t.country,
                     source="route_town", confidence="low" if ambiguous else "high",
                     note=f"also on the route: {others}" if ambiguous else "",
                     considered=tuple(f"{h.town.name}, {h.town.admin1} (route town)" for h in hits))

    # -- gazetteer -----------------------------------------------------------------------------
    def _from_candidates(self, query: str, near, log: list[str], rejected: list,
                         allow_detour: bool = False) -> Town | None:
        cands = self.geocoder.candidates(GeocodeRequest(query=query, near=near, limit=25))
        ok, off = [], []
        for c in cands:
            problems = check_point(c.lat, c.lon, self.region) if self.region else []
            offset = self.corridor.offset_miles(c.lat, c.lon) if self.corridor is not None else 0.0
            if problems:
                log.append(f"{c.label} ({c.lat:.2f}, {c.lon:.2f}) rejected: {', '.join(problems)}")
                rejected.append(c)
            elif offset > self.corridor_miles:
                log.append(f"{c.label} rejected: {offset:.0f} mi off {self.corridor.name}")
                off.append((c, offset))
            else:
                ok.append((c, offset))
        best_off = max(off, key=lambda co: co[0].confidence, default=None)
        meant_off = best_off is not None and (not ok or max(c.confidence for c, _ in ok)
                                              < MEANT_ELSEWHERE * best_off[0].confidence)
        if meant_off:
            return self._detour(best_off, log) if allow_detour else self._refuse(best_off, log)
        return self._choose(ok, near, log) if ok else None

    def _refuse(self, best_off, log: list[str]) -> None:
        c, offset = best_off
        log.append(f"{c.label} is {offset:.0f} mi off {self.corridor.name} (corridor {self.corridor_miles:.0f} mi)")
        return None

    def _detour(self, best_off, log: list[str]) -> Town | None:
        c, offset = best_off
        if offset > DETOUR_MAX_MILES:
            return self._refuse(best_off, log)
        log.append(f"detour requested: {c.label} is {offset:.0f} mi off {self.corridor.name}")
        return Town(name=c.name, lat=c.lat, lon=c.lon, admin1=region_name(c), country=c.country, source="user",
                     note=f"detour requested by the traveller: {offset:.0f} mi off {self.corridor.name}",
                     considered=tuple(log))

    def _choose(self, ok: list[tuple[GeoCandidate, float]], near, log: list[str]) -> Town:
        if near is not None:
            ok.sort(key=lambda co: (geodesic_miles(near, (co[0].lat, co[0].lon)), -co[0].confidence))
        else:
            ok.sort(key=lambda co: (-co[0].confidence, co[1]))
        best, _ = ok[0]
        rivals = [c for c, _ in ok[1:] if self._rival(best, c, near)]
        shared, shared_note = self._no_tie(best, [c for c, _ in ok[1:]], near), ""
        if shared is not None:  # a namesake ten times the others: planned, the others said
            best, shared_note = shared
            log.append(f"{best.label} chosen: {shared_note}")
            rivals = []
        low = best.confidence < AMBIGUOUS_BELOW and bool(rivals)
        shown = ", ".join(f"{c.label} ({c.confidence:.2f})" for c in rivals[:3])
        note = shared_note or (f"chose {best.label} ({best.confidence:.2f}); also possible: {shown}" if low else "")
        considered = tuple(log) + tuple(f"{c.label} ({c.lat:.3f}, {c.lon:.3f}) conf {c.confidence:.2f}" for c, _ in ok)
        return Town(name=best.name, lat=best.lat, lon=best.lon, admin1=region_name(best), country=best.country,
                     source="gazetteer", confidence="low" if low else "high", note=note, considered=considered)

    def _no_tie(self, best: GeoCandidate, others: list[GeoCandidate],
                near) -> tuple[GeoCandidate, str] | None:
        """A name near-tied between places (and not decided by a nearby point or, for a stop, by
        the corridor: ``others`` are only those inside it) is the traveller's to settle, unless
        one of them dominates (engine/geocode/dominance.py, the rule city trips use; also when the
        best is confident: Nominatim may rank a small namesake first): then that place and what
        the traveller is told ("San Francisco, United States — say 'Sant
        Francesc de Formentera, Spain' for the other")."""
        if near is not None:
            return None
        tied = [c for c in others if c.confidence >= best.confidence * NEAR_TIE_SHARE
                and (c.country == "US" or c.country in EUROPE_COUNTRIES)]  # a road trip could mean it
        if not distinct_places([best, *tied])[1:]:
            return None
        weighed = with_populations([best, *tied], self.geocoder)
        chosen = dominant(weighed, getattr(self.geocoder, "name_counts", None))
        if chosen is not None:
            place = next(c for c in [best, *tied] if c.feature_id == chosen.feature_id)
            return place, other_places_note(chosen, [c for c in weighed if c is not chosen])
        if best.confidence < AMBIGUOUS_BELOW:
            raise AmbiguousPlaceError(getattr(self, "_field", "place"), best.name,
                                      [f"{c.label} ({c.confidence:.2f})" for c in [best, *tied][:5]])

    @staticmethod
    def _rival(best: GeoCandidate, other: GeoCandidate, near) -> bool:
        if near is None:
            return other.confidence >= best.confidence * 0.6
        gap = geodesic_miles(near, (other.lat, other.lon)) - geodesic_miles(near, (best.lat, best.lon))
        return gap < NEAR_TIE_MILES

    def _contexts(self, query: str, near, rejected: list[GeoCandidate]) -> list[str]:
        """Qualifiers for a second query: the state a rejected answer named ("Kingman" came back
        in the Pacific but as Kingman, AZ → "Kingman, AZ, USA"), then the nearest route town's."""
        if "," in query:
            return []
        out = []
        for c in rejected:
            if c.admin1:
                out.append(f"{c.admin1}, {'USA' if c.country == 'US' else c.country}")
        if near is not None and self.route_towns:
            town = min(self.route_towns, key=lambda t: geodesic_miles(near, (t.town.lat, t.town.lon))).town
            out.append(f"{town.admin1}, {'USA' if town.country == 'US' else town.country}")
        elif self.region in COUNTRY_OF_REGION:
            out.append(COUNTRY_OF_REGION[self.region])
        return list(dict.fromkeys(out))
