"""``tripwright bookings import FILE... | list | delete N --trip TRIP_ID`` and ``tripwright places
import FILE --trip TRIP_ID``: the traveller's confirmations and saved places kept with a saved trip
and used by its re-plans (issue 21 §1, §2).

They are kept in the trip's intent, not in a table of their own: the latest version's intent gets
the file's bookings or must-sees (``with_bookings`` / ``with_saved_places``, as ``plan --bookings``
and ``plan --places`` add them), or loses a booking, and the trip is planned again from it and
saved as its next version through ``plan --save``'s path (``plan_and_save``: the run recorded, the
request idempotent — the same change from the same version within the TTL reuses the version it
made). A file that adds nothing the latest version does not have plans nothing. ``list`` shows
each confirmation code masked: the itinerary keeps it, a terminal listing does not print it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from engine.errors import InputError

if TYPE_CHECKING:  # the parser is built for every command: what runs these loads them
    from engine.models.bookings import Bookings


def _log():
    import structlog
    return structlog.get_logger("tripwright.cli")


def add_trip_inputs_parsers(command) -> None:  # noqa: ANN001 (the CLI's subcommand factory)
    bookings = command("bookings", "import, list or delete the bookings kept with a saved trip (a road "
                                   "trip's: the motel booked for one of its nights)")
    bookings.add_argument("action", choices=["import", "list", "delete"], help="what to do")
    bookings.add_argument("args", nargs="*", metavar="FILE|N",
                          help="import: your confirmations (.eml/.html with schema.org markup, .ics, or .pdf/.txt "
                               "read by the configured model); delete: the booking's number in 'bookings list'")
    bookings.add_argument("--trip", required=True, help="the trip's id (see 'tripwright trips list')")
    _replan_options(bookings, "import/delete: ")
    places = command("places", "import saved places into a saved city trip as places to see")
    places.add_argument("action", choices=["import"], help="what to do")
    places.add_argument("file", help="My Maps KML/KMZ, Takeout GeoJSON, GPX waypoints or CSV name,lat,lon")
    places.add_argument("--trip", required=True, help="the trip's id (see 'tripwright trips list')")
    _replan_options(places, "")


def _replan_options(parser, when: str) -> None:  # noqa: ANN001
    parser.add_argument("--today", help=f"{when}planning date of the re-plan (YYYY-MM-DD); default today")
    parser.add_argument("--out", help=f"{when}write the new version's itinerary JSON here")


def run_bookings(args) -> int:  # noqa: ANN001
    if args.action == "list":
        if args.args:
            raise InputError("bookings list", "takes no files or numbers, only --trip")
        number, intent = latest_intent(args.trip, "bookings")
        from engine.models.bookings import Bookings
        return _list(args.trip, number, intent.bookings or Bookings(), _ticket_lines(intent))
    if args.action == "import":
        if not args.args:
            raise InputError("bookings import", "name at least one confirmation file")
        return _replan(args, "bookings-import", inputs={f"FILE {p}": p for p in args.args},
                       change=lambda intent, session, verbose: _with_bookings(intent, args.args, session, verbose))
    index = _booking_number(args.args)
    return _replan(args, f"bookings-delete-{index}", inputs={},
                   change=lambda intent, session, verbose: without_booking(intent, index, args.trip))


def run_places(args) -> int:  # noqa: ANN001
    from .saved_places_cmd import with_saved_places
    return _replan(args, "places-import", inputs={"FILE": args.file},
                   change=lambda intent, session, verbose: with_saved_places(intent, args.file, session,
                                                                             verbose=verbose, arg="FILE"))


def latest_intent(trip_id: str, what: str):
    """(number, intent) of the trip's latest version; one-line InputErrors for an unknown or
    deleted trip, a road trip's saved places and a trip with no version (a road trip keeps its
    booked motel)."""
    from engine.models import IntentV1, MultiCityIntent, RoadTripIntent

    from .run_store import org_scope
    with org_scope() as repo:
        trip = repo.trips.get(trip_id)
        if trip.mode != "city" and what != "bookings":
            kind = "multi-city trip" if trip.mode == "multi_city" else "road trip"
            raise InputError("trip", f"trip {trip_id} is a {kind}; {what} are kept with city trips")
        version = repo.versions.get(trip_id)
    model = {"city": IntentV1, "multi_city": MultiCityIntent}.get(trip.mode, RoadTripIntent)
    return version.number, model.model_validate(version.intent)


def booking_lines(bookings: Bookings, tickets: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """One line per booking, numbered as ``delete`` takes them (flights in order, the hotel, events,
    then a multi-city trip's ``tickets``: ``_ticket_lines``), each confirmation code masked."""
    lines = []
    for f in bookings.flights:
        lines.append(f"flight  {f.flight_number}  {f.origin}→{f.dest}  {f.departure:%Y-%m-%d %H:%M} → "
                     f"{f.arrival:%Y-%m-%d %H:%M}  {f.carrier}{_said(f.confirmation, f.price_usd_cents, f.paid)}")
    hotel = bookings.hotel
    if hotel is not None:
        lines.append(f"hotel   {hotel.name}  {hotel.checkin} → {hotel.checkout}"
                     f"{_said(hotel.confirmation, hotel.price_usd_cents, hotel.paid)}")
    for e in bookings.events:
        where = f"  {e.venue}" if e.venue else ""
        lines.append(f"event   {e.name}{where}  {e.start:%Y-%m-%d %H:%M}"
                     f"{_said(e.confirmation, e.price_usd_cents, e.paid)}")
    lines.extend(tickets)
    return [f"{n:>3}  {line}" for n, line in enumerate(lines, start=1)]


def _booked_parts(intent) -> list[tuple[str, int]]:
    """A multi-city trip's bookings kept on its legs and stays: ("leg", i) and ("stay", k), in that order."""
    if intent.mode != "multi_city":
        return []
    return ([("leg", i) for i, leg in enumerate(intent.legs) if leg.booked is not None]
            + [("stay", k) for k, stay in enumerate(intent.stays) if stay.hotel is not None])


def _ticket_lines(intent) -> list[str]:
    lines = []
    for part, i in _booked_parts(intent):
        if part == "leg":
            t = intent.legs[i].booked
            number = f" {t.number}" if t.number else ""
            lines.append(f"{t.mode:<7} {t.operator}{number}  {t.from_name}→{t.to_name}  {t.departure:%Y-%m-%d %H:%M} → "
                         f"{t.arrival:%Y-%m-%d %H:%M}{_said(t.confirmation, t.price_usd_cents, t.paid)}")
        else:
            stay = intent.stays[i]
            hotel = stay.hotel
            lines.append(f"hotel   {hotel.name}  {hotel.checkin} → {hotel.checkout}  ({stay.city})"
                         f"{_said(hotel.confirmation, hotel.price_usd_cents, hotel.paid)}")
    return lines


def _said(code: str | None, cents: int | None, paid: bool) -> str:
    from engine.models import format_usd
    from engine.models.bookings import masked_code
    parts = [f"confirmation {masked_code(code)}"] if code else []
    if cents is not None:
        parts.append(format_usd(cents) + (" paid" if paid else ""))
    elif paid:
        parts.append("paid")
    return "".join(f"  {p}" for p in parts)


def _list(trip_id: str, number: int, bookings: Bookings, tickets: list[str]) -> int:
    lines = booking_lines(bookings, tickets)
    _log().info("trip_bookings_listed", trip_id=trip_id, version=number, count=len(lines))
    for line in lines:
        print(line)
    print(f"{len(lines)} booking(s) in version {number} of trip {trip_id}")
    return 0


def _booking_number(args: list[str]) -> int:
    if len(args) != 1:
        raise InputError("N", "name one booking by its number in 'tripwright bookings list'")
    try:
        return int(args[0])
    except ValueError:
        raise InputError("N", f"{args[0][:20]!r} is not a booking number (see 'tripwright bookings list')") from None


def without_booking(intent, n: int, trip_id: str):
    """``intent`` without its ``n``-th booking (1-based, as ``booking_lines`` numbers them)."""
    from engine.models.bookings import Bookings
    have = intent.bookings or Bookings()
    own = len(have.flights) + (have.hotel is not None) + len(have.events)
    parts = _booked_parts(intent)
    count = own + len(parts)
    if count == 0:
        raise InputError("N", f"trip {trip_id} has no bookings")
    if not 1 <= n <= count:
        raise InputError("N", f"no booking {n}: trip {trip_id} has {count} (1-{count}, see 'tripwright bookings list')")
    if n > own:  # a multi-city trip's ticket on a leg, or a stay's hotel
        part, i = parts[n - own - 1]
        data = intent.model_dump()
        if part == "leg":
            data["legs"][i]["booked"] = None
        else:
            data["stays"][i]["hotel"] = None
        return type(intent).model_validate(data)
    flights, hotel, events = list(have.flights), have.hotel, list(have.events)
    first_event = len(flights) + (hotel is not None) + 1
    if n <= len(flights):
        del flights[n - 1]
    elif n < first_event:
        hotel = None
    else:
        del events[n - first_event]
    kept = Bookings(flights=flights, hotel=hotel, events=events)
    data = intent.model_dump()
    data["bookings"] = None if kept.empty else kept.model_dump()
    return type(intent).model_validate(data)


def _with_bookings(intent, paths: list[str], session, verbose: bool):
    from .bookings_cmd import with_bookings
    return with_bookings(intent, paths, session, verbose=verbose, arg="FILE")


def _replan(args, change_key: str, *, inputs: dict[str, str], change) -> int:  # noqa: ANN001
    """Apply ``change`` to the latest version's intent, plan it and save it as the trip's next version."""
    from engine.catalog import default_catalog
    from engine.frontend import check_not_past, planning_date
    from engine.pipeline import PlanningSession

    from .paths import Outputs
    from .plan_report import report_plan
    from .run_store import plan_and_save, save_diagnostics
    outputs = Outputs.check({"--out": args.out}, inputs=inputs)
    today = planning_date(args.today)
    what = "saved places" if args.command == "places" else "bookings"
    number, before = latest_intent(args.trip, what)
    session = PlanningSession(default_catalog(), today=today)
    after = change(before, session, bool(getattr(args, "verbose", 0)))
    if after == before:
        print(f"tripwright: nothing new: version {number} of trip {args.trip} already has these {what}",
              file=sys.stderr)
        return 0
    check_not_past(after, today)
    _log().info("trip_replan", trip_id=args.trip, based_on=number, change=change_key)
    try:
        result = plan_and_save(session, after, trip_id=args.trip, name=None,
                               request_key=f";{change_key}-from=v{number}")
    finally:
        save_diagnostics(session)
    args.gpx = args.ics = args.events = None
    return report_plan(args, outputs, result)
