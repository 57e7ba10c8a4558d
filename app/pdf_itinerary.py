"""A printable PDF itinerary with Qt's own PDF writer: a cover page with the trip's name, the map
snapshot and the totals, then the days with their activities and times, short days sharing a page.
QTextDocument.print_() numbers the pages, and the text stays text (selectable, searchable).

Everything from the itinerary is HTML-escaped before it reaches the QTextDocument. The PDF is
rendered into memory and written with the engine's atomic writer (a temp file next to the target,
then ``os.replace``), so a reader never sees half a file.
"""

from __future__ import annotations

import html
import os

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from engine.atomic import write_atomic
from engine.export.text import shorten_at_word, traveller_text
from engine.export.times import activity_times, day_zone
from engine.maps.trip_map import day_colour
from engine.models import ItineraryV1, format_usd
from widgets import formatting as fmt

MAP_RESOURCE = "tripwright://map.png"
PAGE_MARGIN_MM = 5
# QTextDocument.print_() lays the page out at 96 dpi and adds 2 cm of its own margins: the text
# width of an A4 page is what is left of its 210 mm.
TEXT_WIDTH_PX = round((210 - 2 * (PAGE_MARGIN_MM + 20)) / 25.4 * 96)
NOTE_CHARS = 240  # a note longer than this is cut at a word, with an ellipsis
PAGE_HEIGHT_PX = round((297 - 2 * (PAGE_MARGIN_MM + 20)) / 25.4 * 96) - 40  # less the page number


def itinerary_pdf_bytes(itinerary: ItineraryV1, map_image: QImage | None = None, *, title: str = "",
                        distance_unit: str = "mi") -> bytes:
    document = _document()
    if map_image is not None and not map_image.isNull():
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(MAP_RESOURCE), map_image)
    document.setHtml(itinerary_html(itinerary, has_map=map_image is not None and not map_image.isNull(),
                                    map_height=_scaled_height(map_image), title=title, unit=distance_unit))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title or _title(itinerary))
    writer.setCreator("Tripwright")
    margins = QMarginsF(PAGE_MARGIN_MM, PAGE_MARGIN_MM, PAGE_MARGIN_MM, PAGE_MARGIN_MM)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     margins, QPageLayout.Unit.Millimeter))
    document.print_(writer)
    del writer  # finishes the PDF into the buffer
    buffer.close()
    return bytes(data.data())


def _document() -> QTextDocument:
    """A page's document: the PDF's style, and fonts for names in other scripts (pdf_fonts.py)."""
    from app.pdf_fonts import with_script_fallbacks
    document = QTextDocument()
    document.setDefaultFont(with_script_fallbacks(document.defaultFont()))
    document.setDefaultStyleSheet(_STYLE)
    return document


def write_itinerary_pdf(path: str | os.PathLike[str], itinerary: ItineraryV1, map_image: QImage | None = None,
                        *, title: str = "", distance_unit: str = "mi") -> None:
    write_atomic(path, itinerary_pdf_bytes(itinerary, map_image, title=title, distance_unit=distance_unit))


def itinerary_html(itinerary: ItineraryV1, *, has_map: bool = False, map_height: int = 0, title: str = "",
                   unit: str = "mi") -> str:
    parts = [f"<h1>{_e(title or _title(itinerary))}</h1>", f"<p class='sub'>{_e(_subtitle(itinerary))}</p>"]
    if has_map:
        parts.append(f"<p><img src='{MAP_RESOURCE}' width='{TEXT_WIDTH_PX}' height='{map_height}'></p>")
        parts.append(day_key(itinerary))
    parts.append(_totals(itinerary, unit))
    if itinerary.violations:
        parts.append("<h3>Advisories</h3><ul>" + "".join(
            f"<li>{_e(v.details.get('message', v.reason))}</li>" for v in itinerary.violations) + "</ul>")
    parts.append(f"<p class='note'>{_e(itinerary.disclaimer)}</p>")
    used = PAGE_HEIGHT_PX  # the days start on a fresh page after the cover
    for index, day in enumerate(itinerary.days):
        height = _printed_height(_day_block(itinerary, index, day, fresh_page=False, unit=unit))
        fresh = used + height > PAGE_HEIGHT_PX
        used = height if fresh else used + height
        parts.append(_day_block(itinerary, index, day, fresh_page=fresh, unit=unit))
    return "<html><body>" + "".join(parts) + "</body></html>"


def day_key(itinerary: ItineraryV1, columns: int = 4) -> str:
    """Under the map, each day's colour (its line and pins on the map, as the app's legend) and its
    date: a table of swatches, the text staying text."""
    cells = [f"<td bgcolor='{day_colour(i)}' width='14'>&nbsp;</td>"
             f"<td class='key'>Day {i + 1} \u00b7 {day.date:%a} {day.date.day} {day.date:%b}</td>"
             for i, day in enumerate(itinerary.days)]
    rows = ["".join(cells[at:at + columns]) for at in range(0, len(cells), columns)]
    return ("<table class='daykey' cellspacing='3' cellpadding='1'>"
            + "".join(f"<tr>{row}</tr>" for row in rows) + "</table>")


def _printed_height(block: str) -> float:
    """How tall ``block`` prints, laid out alone at the page's text width: short days share a
    page, and a day that does not fit in what is left of one starts the next."""
    document = _document()
    document.setHtml(f"<html><body>{block}</body></html>")
    document.setTextWidth(TEXT_WIDTH_PX)
    return document.size().height()


def _day_block(itinerary: ItineraryV1, index: int, day, *, fresh_page: bool, unit: str = "mi") -> str:
    brk = "page-break-before: always; " if fresh_page else ""
    head = f"<h2 style='{brk}margin-top: 18px'>Day {index + 1} \u00b7 {day.date:%A %d %B %Y}</h2>"
    lines = []
    if day.drive is not None:
        lines.append(f"Drive {fmt.distance(day.drive.miles, unit)} (about {day.drive.hours:.1f} h): "
                     f"{day.drive.from_name} \u2192 {day.drive.to_name}")
    if day.anchor is not None:
        lines.append(f"Overnight: {day.anchor.name}")
    info = "".join(f"<p class='sub'>{_e(line)}</p>" for line in lines)
    zone = day_zone(itinerary, day)
    rows = "".join(_row(a, activity_times(day.date, a, zone)) for a in day.activities)  # each end on its own clock
    table = ("<table width='100%' cellspacing='0' cellpadding='4'>"
             "<tr><th align='left'>Time</th><th align='left'>Activity</th><th align='right'>Cost</th></tr>"
             f"{rows}</table>")
    return head + info + table


def _row(activity, when: str) -> str:
    transfer = activity.role == "transfer"
    cls = " class='transfer'" if transfer else ""
    cost = format_usd(activity.cost_usd_cents) if activity.cost_usd_cents else ""
    # Words, not the padlock emoji: the PDF's fonts have no glyph for it and printed a box.
    mark = " <span class='lock'>(locked)</span>" if activity.locked else ""
    note = shorten_at_word(traveller_text(activity.notes), NOTE_CHARS) if not transfer else ""
    notes = f"<br><span class='note'>{_e(note)}</span>" if note else ""
    return (f"<tr{cls}><td valign='top' width='90'>{_e(when)}</td>"
            f"<td valign='top'>{_e(activity.shown_name)}{mark}{notes}</td>"
            f"<td valign='top' align='right' width='80'>{_e(cost)}</td></tr>")


def _totals(itinerary: ItineraryV1, unit: str = "mi") -> str:
    c = itinerary.cost_breakdown
    rows = [("Flights", c.flights_usd_cents), ("Lodging", c.lodging_usd_cents),
            ("Attractions", c.attractions_usd_cents), ("Meals", c.meals_usd_cents),
            ("Transit / fuel", c.transit_usd_cents), ("Daily allowance", c.daily_spend_usd_cents)]
    keys = dict(zip([name for name, _ in rows], ("flights", "lodging", "attractions", "meals", "transit", "daily_spend")))
    est = set(c.estimated_parts)
    cells = "".join(f"<tr><td>{name}{' (estimated)' if keys[name] in est else ''}</td>"
                    f"<td align='right'>{format_usd(v)}</td></tr>" for name, v in rows if v)
    return (f"<table cellspacing='0' cellpadding='3'>{cells}<tr><td><b>Total</b></td>"
            f"<td align='right'><b>{format_usd(c.total_usd_cents)}</b></td></tr></table>"
            f"<p class='note'>{_e(fmt.distances_in_text(c.currency_disclaimer, unit))}</p>"
            + "".join(f"<p class='note'>{_e(credit)}</p>" for credit in itinerary.attributions))


def _title(itinerary: ItineraryV1) -> str:
    intent = itinerary.intent
    if intent.mode == "road_trip":
        via = f" via {intent.route}" if intent.route else ""
        return f"{intent.origin} \u2192 {intent.terminus}{via}"
    if intent.mode == "multi_city":
        cities = " \u2192 ".join(s.city for s in intent.stays)
        return f"{cities}, {len(itinerary.days)} days"
    return f"{intent.city}, {len(itinerary.days)} days"


def _subtitle(itinerary: ItineraryV1) -> str:
    days = itinerary.days
    span = f"{days[0].date:%d %b %Y} \u2013 {days[-1].date:%d %b %Y}" if days else ""
    return f"{len(days)} days \u00b7 {span} \u00b7 total {format_usd(itinerary.cost_breakdown.total_usd_cents)}"


def _scaled_height(image: QImage | None) -> int:
    if image is None or image.isNull() or image.width() == 0:
        return 0
    return round(TEXT_WIDTH_PX * image.height() / image.width())


def _e(text: str) -> str:
    return html.escape(str(text), quote=True)


_STYLE = """
h1 { font-size: 20pt; margin-bottom: 2px; }
h2 { font-size: 15pt; margin-bottom: 2px; }
h3 { font-size: 12pt; }
p.sub { color: #37474f; margin: 0; }
.note { color: #616161; font-size: 8pt; }
th { background-color: #eceff1; }
.lock { color: #37474f; font-style: italic; }
tr.transfer td { color: #78909c; font-size: 8pt; }
td.key { font-size: 8pt; color: #37474f; padding-right: 8px; }
"""
