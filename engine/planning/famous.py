"""A city's best-known sights in a plan (issue 31 §1).

A city read from OpenStreetMap names its best-known sights (``PackCity.famous``, ranked by
``places.ranking.fame_score``: Wikidata sitelinks, heritage listings, translated names, size). The
attractions tool always offers them, the day builder prefers them over a theme match
(``day_builder.FAMOUS_BONUS``) — the traveller's themes choose among the rest —, the selector
prefers the branch that visits more of them, and the itinerary says why any of them was left out:
closed on every day of the trip, excluded by what the traveller asked, or no time left.
A fixture city names none: its plans are as they were.
"""

from __future__ import annotations

from engine.models import ChoiceKind, Decision, IntentV1, PlanV1
from engine.models.tool_results import Attraction


def famous_ids(city) -> list[str]:
    """The city's best-known sights, best first (none for a city that does not say)."""
    return list(getattr(getattr(city, "raw", None), "famous", None) or ())


def visited(plan: PlanV1) -> set[str]:
    return {s.selected.option_ref for _, _, s in plan.slots() if s.selected.kind is ChoiceKind.attraction}


def coverage(plan: PlanV1, famous: list[str]) -> float:
    """The share of the city's best-known sights the plan visits (0 when it names none)."""
    return len(visited(plan) & set(famous)) / len(famous) if famous else 0.0


def famous_decisions(plan: PlanV1, intent: IntentV1, city, attractions: list[Attraction],
                     removed: frozenset[str] = frozenset()) -> list[Decision]:
    """One decision per best-known sight the plan leaves out, saying why in the traveller's words
    (``removed``: the sights the traveller's own edits took out)."""
    famous = famous_ids(city)
    if not famous:
        return []
    seen = visited(plan)
    offered = {a.id: a for a in attractions}
    names = {v.id: v.name for v in getattr(city.raw, "venues", ())}
    out = []
    for rank, ref in enumerate(famous, start=1):
        if ref in seen:
            continue
        name = names.get(ref, ref)
        out.append(Decision(node="famous_sights", selected=f"left out: {name}", alternatives_considered=len(famous),
                            rationale=f"{name} (#{rank} of {city.name}'s best-known sights) is not in your plan: "
                                      + ("you took it out of the plan." if ref in removed
                                         else _why(ref, offered.get(ref), plan, intent))))
    if out:
        kept = len(famous) - len(out)
        out.insert(0, Decision(node="famous_sights", selected=f"{kept} of {len(famous)}",
                               alternatives_considered=len(famous),
                               rationale=f"Your plan visits {kept} of {city.name}'s {len(famous)} best-known sights "
                                         "(ranked by Wikipedia/Wikidata links, heritage listings and translated "
                                         "names in OpenStreetMap)."))
    return out


def _why(ref: str, venue: Attraction | None, plan: PlanV1, intent: IntentV1) -> str:
    if venue is None:
        if intent.prefs.kid_friendly:
            return "you asked for places suited to children, and it is not marked as one."
        return "it was not among the places offered for your dates."
    days = [d.date for d in plan.days]
    if not any(venue.windows_on(day) for day in days):
        return f"it is closed on every day of your trip ({days[0]:%a %d %b}–{days[-1]:%a %d %b})."
    if any(lock.activity_id == ref for lock in intent.prefs.locked_slots):
        return "you fixed it to a time it could not be visited."
    return "your days had no time left for it while it was open, after the flights, meals and other visits."
