"""A multi-city itinerary grouped by stay (issue 33 §4): what the itinerary tree shows above the days — one
row per stay ("Lisbon · 3 nights", its dates and cost) with its days under it, and one row per leg between
them ("Train Lisboa Santa Apolónia → Porto Campanhã 10:30–13:29, estimated"). The leg's own activity in its
day says the same line. Cells are role → value dicts, as ``ItineraryModel`` keeps them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from pydantic import ValidationError

from engine.maps.stay_layers import MODE_WORDS, leg_label
from engine.models import Activity, ItineraryV1, MultiCityIntent, PlannedLeg

from . import formatting as fmt

STAY_TINT = "#d5e0ec"  # a stay's line, a shade darker than its days'
LEG_TINT = "#efe7f6"


def stay_groups(itinerary: ItineraryV1) -> list[tuple[int, list[int]]]:
    """(stay index, its day indices) in trip order; a day the run left unassigned joins the stay before."""
    groups: list[tuple[int, list[int]]] = []
    for d, day in enumerate(itinerary.days):
        stay = day.stay if day.stay is not None else (groups[-1][0] if groups else 0)
        if groups and groups[-1][0] == stay:
            groups[-1][1].append(d)
        else:
            groups.append((stay, [d]))
    return groups


def legs_after(itinerary: ItineraryV1, stay: int) -> list[PlannedLeg]:
    """The legs leaving the stay ``stay``: legs[i] joins stays[i] to the next (the last one: back to the first)."""
    return [leg for leg in itinerary.legs if leg.index == stay]


def leg_of(itinerary: ItineraryV1, activity: Activity) -> PlannedLeg | None:
    """The planned leg an activity of role "leg" stands for (its ref is "leg_N")."""
    if activity.role != "leg" or not activity.ref.startswith("leg_"):
        return None
    index = activity.ref.removeprefix("leg_")
    return next((leg for leg in itinerary.legs if str(leg.index) == index), None)


def stay_line(itinerary: ItineraryV1, stay: int, days: list[int], cost: str) -> tuple[str, str]:
    """(the stay row's whole line, its tooltip)."""
    intent = itinerary.intent
    city = intent.stays[stay].city if stay < len(intent.stays) else "?"
    nights = intent.stays[stay].nights if stay < len(intent.stays) else 0
    first, last = itinerary.days[days[0]].date, itinerary.days[days[-1]].date
    span = f"{fmt.short_day_label(first)} {fmt.EN_DASH} {fmt.short_day_label(last)}"
    line = (f"{city} \u00b7 {nights} night{'s' if nights != 1 else ''} \u00b7 {span} \u00b7 days {days[0] + 1}"
            f"{fmt.EN_DASH}{days[-1] + 1} \u00b7 {cost}")
    tip = f"Stay {stay + 1} of {len(intent.stays)}: {city}, {nights} night(s)\n{fmt.day_label(first)} to {fmt.day_label(last)}"
    return line, tip


def leg_cells(leg: PlannedLeg, day: int, headers: int, roles) -> list[dict]:
    """The row of a leg between two stays: its one line across the row, the fare, the reason in the tooltip."""
    line = leg_label(leg)
    tip = "\n".join(filter(None, [line, leg.why, f"Fare {fmt.money(leg.fare_usd_cents)} for the party",
                                  f"{leg.distance_km:,.0f} km" + (f", {leg.changes} change(s)" if leg.changes else "")]))
    shared = {roles.ItemTypeRole: "leg", roles.ActivityIdRole: "", roles.DayRole: None, roles.DayIndexRole: day,
              roles.ConfidenceRole: "high", roles.LockedRole: False, roles.KindRole: "leg",
              Qt.ItemDataRole.ToolTipRole: fmt.plain_tooltip(tip)}
    cells = [dict(shared) for _ in range(headers)]
    cells[roles.COL_KIND][Qt.ItemDataRole.DisplayRole] = MODE_WORDS[leg.mode]
    cells[roles.COL_NAME][Qt.ItemDataRole.DisplayRole] = line
    fare = fmt.money(leg.fare_usd_cents) if leg.source == "booked" else f"est. {fmt.money(leg.fare_usd_cents)}"
    cells[roles.COL_COST][Qt.ItemDataRole.DisplayRole] = fare
    # the row is one line across the columns (its Cost cell is not drawn): the fare is said in it, like a stay's cost
    header = f"{line} \u00b7 {fare}"
    cells[roles.COL_WHEN].update({Qt.ItemDataRole.DisplayRole: header, roles.HeaderRole: header,
                                  Qt.ItemDataRole.BackgroundRole: QColor(LEG_TINT)})
    return cells


def stay_cells(itinerary: ItineraryV1, stay: int, days: list[int], cost: str, headers: int, roles) -> list[dict]:
    """The row of a stay: its city, nights, dates, days and cost (``cost`` as shown: "est. $70.00")."""
    line, tip = stay_line(itinerary, stay, days, cost)
    shared = {roles.ItemTypeRole: "stay", roles.ActivityIdRole: "", roles.DayRole: None,
              roles.DayIndexRole: days[0], roles.StayRole: stay, roles.ConfidenceRole: "high", roles.LockedRole: False,
              roles.KindRole: "stay", Qt.ItemDataRole.ToolTipRole: fmt.plain_tooltip(tip)}
    cells = [dict(shared) for _ in range(headers)]
    city = itinerary.intent.stays[stay].city if stay < len(itinerary.intent.stays) else "?"
    cells[roles.COL_KIND][Qt.ItemDataRole.DisplayRole] = f"Stay {stay + 1}"
    cells[roles.COL_NAME][Qt.ItemDataRole.DisplayRole] = city
    cells[roles.COL_COST][Qt.ItemDataRole.DisplayRole] = cost
    cells[roles.COL_WHEN].update({Qt.ItemDataRole.DisplayRole: line, roles.HeaderRole: line,
                                  Qt.ItemDataRole.BackgroundRole: QColor(STAY_TINT)})
    return cells


def night_moves(intent: MultiCityIntent, stay: int) -> list[tuple[str, MultiCityIntent]]:
    """What a stay's row offers (issue 33 §4): a night moved from it to the next or the previous city, or
    taken from the next one — each as the trip it makes, those the trip's rules allow (1–14 nights a stay,
    a booked hotel's dates kept)."""
    moves = []
    for frm, to in ((stay, stay + 1), (stay, stay - 1), (stay + 1, stay)):
        if not (0 <= frm < len(intent.stays) and 0 <= to < len(intent.stays)):
            continue
        nights = [s.nights for s in intent.stays]
        nights[frm], nights[to] = nights[frm] - 1, nights[to] + 1
        data = intent.model_dump()
        data["stays"] = [{**s, "nights": n} for s, n in zip(data["stays"], nights)]
        try:
            moved = MultiCityIntent.model_validate(data)
        except ValidationError:
            continue  # one night left, fourteen already, or a booked hotel's dates
        moves.append((f"Move a night from {intent.stays[frm].city} to {intent.stays[to].city}", moved))
    return list(dict((label, (label, moved)) for label, moved in moves).values())
