"""The traveller's booking confirmations in (issue 21 §1): saved e-mails (``.eml``) and web pages
(``.html``) with schema.org markup, airline and hotel calendar files (``.ics``), and PDF or text
confirmations read by the configured model — each into ``engine.models.bookings.Bookings``.

    read_bookings(path, *, today=None, legs=False) -> BookingsImport  # no model: markup, calendars
    await aread_bookings(path, client=None, *, today=None)          # the same, and text via the model
    parse_bookings(data, name, ...) / await aparse_bookings(data, name, client, ...)  # bytes in memory

``legs=True`` (a multi-city trip) also reads train and bus tickets into ``BookingsImport.legs``
(``ground_legs.py``); ``stay_legs.place_tickets`` puts them, and flights between two stays'
airports, on the intent's legs.

``BookingsImport``: ``bookings``, ``source`` (email | html | ics | pdf | text), ``read_by``
(markup | calendar | model), ``skipped`` (reason → count: ``TrainReservation``, ``malformed
JSON-LD``, …), ``notes``, and ``summary()`` — one line, confirmation codes masked.

Every problem is one ``InputError("bookings", …)`` naming the file, and the booking and field
when it is a value (see ``values.py``); a file only a model can read, with no model or one that
cannot be used, says "could not read this booking from <file> (…); enter it by hand in the trip
form"; a model whose reading is not in the file (an invented flight number) raises
``RejectedReading`` (a ``ModelOutputError``) ending the same way. ``client`` may also be a
function making one when a file needs it (closed after). Logs carry masked codes only, never
names, e-mail addresses or phone numbers.

the traveller's confirmations (issue 21 §1): `reader.py` (kind by content), `email_markup.py` +
`microdata.py` + `schema_org.py` (MIME parts; JSON-LD found by a bounded scan, microdata in a 64 KB window;
FlightReservation/LodgingReservation → `BookedFlight`/`BookedHotel`, other reservations counted),
`calendar_file.py` (.ics), `text_booking.py` + `grounding.py` (PDF/text through the configured model with a
strict schema; every field must appear in the text, re-asked once, else refused; no model → "enter it by
hand"), `values.py` (checks, airport clocks, FX); logs carry masked codes only
"""

from .reader import aparse_bookings, aread_bookings, detect_kind, parse_bookings, read_bookings
from .result import BookingsImport
from .text_booking import RejectedReading

__all__ = ["BookingsImport", "RejectedReading", "aparse_bookings", "aread_bookings", "detect_kind",
           "parse_bookings", "read_bookings"]
