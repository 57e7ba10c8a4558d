"""A finished run on the command line: its files written (``--out``/``--gpx``/``--ics``/
``--events``) and its summary printed; the exit code (0, or 3 with the failure in ``--out``).
Shared by plan, plan --llm, revise and the trip input commands."""

from __future__ import annotations

import sys
from functools import partial

from engine.export import render
from engine.models import format_usd

from .paths import Outputs


def report_plan(args, outputs, result, *, llm_meta: dict | None = None) -> int:
    """Write the outputs of a finished run and print its summary; the exit code. ``--events``
    was written as the run went (``LiveEvents``) unless no event streamed (a stored version reused)."""
    live = getattr(args, "live_events", None)
    if live is not None:
        live.close()
    events = partial(_events_jsonl, result.events)
    if live is not None and live.count:
        outputs = Outputs({k: v for k, v in outputs.paths.items() if k != "--events"})
    if result.status != "completed":
        outputs.write({"--events": events, "--out": partial(result.failure.model_dump_json, indent=2)})
        _print_report(args, result)
        print(f"tripwright: {result.failure.message}", file=sys.stderr)
        for diff in result.failure.attempts:
            moves = ", ".join(f"{m.move_type.value} {m.old_value} → {m.new_value}" for m in diff.moves) or "no move applied"
            print(f"  cycle {diff.cycle}: {moves}", file=sys.stderr)
        return 3
    itinerary = result.itinerary
    if llm_meta:
        itinerary = itinerary.model_copy(update={"llm_meta": llm_meta})
    exports = {f"--{arg}": partial(render, kind, itinerary) for arg, kind in (("out", "json"), ("gpx", "gpx"), ("ics", "ics"))}
    outputs.write({**exports, "--events": events})
    _print_report(args, result)
    _summary(itinerary, args.out)
    return 0


def _multi_city_summary(itinerary, out: str | None) -> None:
    intent, cost = itinerary.intent, itinerary.cost_breakdown
    cities = " → ".join(f"{s.city} ({s.nights}n)" for s in intent.stays)
    print(f"{cities}: {len(itinerary.days)} days, total {format_usd(cost.total_usd_cents)} of "
          f"{format_usd(intent.budget_usd_cents)}; {len(itinerary.legs)} leg(s), {len(itinerary.violations)} advisory, "
          f"{len(itinerary.repairs)} repair cycle(s), {len(itinerary.citations)} citations")
    for leg in itinerary.legs:
        print(f"  leg {leg.index + 1}: {leg.from_city} → {leg.to_city} by {leg.mode} "
              f"{leg.departure:%a %d %b %H:%M}–{leg.arrival:%H:%M} ({leg.source}); {leg.why}")
    if out is None:
        for day in itinerary.days:
            print(f"  {day.date:%a %Y-%m-%d}  {intent.stays[day.stay].city if day.stay is not None else ''}")
            for a in day.activities:
                if a.kind.value != "transit" or a.role == "leg":
                    print(f"    {_when(a, day.date)}  {a.shown_name}")


def _when(activity, day) -> str:
    """A flight's true span, each end on its own clock and with its date when not the day's
    ("20:35 EDT Mon 14 Jun-09:50 CEST"); anything else its window on the day."""
    if activity.kind.value != "flight" or activity.start is None or activity.end is None:
        return activity.window.label()
    from zoneinfo import ZoneInfo
    ends = []
    for moment, zone in ((activity.start, activity.start_tz), (activity.end, activity.end_tz)):
        local = moment.astimezone(ZoneInfo(zone)) if zone else moment
        ends.append(f"{local:%H:%M} {local.tzname()}" + ("" if local.date() == day else f" {local:%a %d %b}"))
    return "-".join(ends)


def _events_jsonl(events) -> str:
    return "".join(e.model_dump_json() + "\n" for e in events)


def _print_report(args, result) -> None:
    if getattr(args, "report", False) and "report" in result.extra:
        print(result.extra["report"], end="")


def _summary(itinerary, out: str | None) -> None:
    cost = itinerary.cost_breakdown
    if itinerary.intent.mode == "road_trip":
        miles = sum(d.drive.miles for d in itinerary.days if d.drive)
        print(f"{itinerary.intent.origin} → {itinerary.intent.terminus}: {len(itinerary.days)} days, "
              f"{miles:.0f} mi, about {format_usd(cost.total_usd_cents)}; {len(itinerary.violations)} advisory")
        for said in (d.rationale for d in itinerary.decisions if d.node == "place"):
            print(f"  {said}")  # "Planning San Francisco, United States — say '…' for the other."
        for day in itinerary.days if out is None else []:
            print(f"  {day.date:%a %Y-%m-%d}  {day.drive.miles:.0f} mi → {day.anchor.name}"
                  f"{'' if day.anchor.confidence == 'high' else ' (low confidence)'}")
        return
    if itinerary.intent.mode == "multi_city":
        _multi_city_summary(itinerary, out)
        return
    print(f"{itinerary.intent.city}: {len(itinerary.days)} days, total {format_usd(cost.total_usd_cents)} "
          f"of {format_usd(itinerary.intent.budget_usd_cents)}; {len(itinerary.violations)} advisory, "
          f"{len(itinerary.repairs)} repair cycle(s), {len(itinerary.citations)} citations")
    for said in (d.rationale for d in itinerary.decisions if d.node == "place"):
        print(f"  {said}")  # "Planning Barcelona, Spain — say 'Barcelona, Venezuela' for the other."
    if out is None:
        for day in itinerary.days:
            print(f"  {day.date:%a %Y-%m-%d}")
            for a in day.activities:
                if a.kind.value != "transit":
                    print(f"    {_when(a, day.date)}  {a.shown_name}")
