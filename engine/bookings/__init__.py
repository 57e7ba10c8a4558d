"""The traveller's booking confirmations in (issue 21 §1): saved e-mails (``.eml``) and web pages
(``.html``) with schema.org markup, airline and hotel calendar files (``.ics``), and PDF or text
confirmations read by the configured model — each into ``engine.models.bookings.Bookings``.

    read_bookings(path, *, today=None) -> BookingsImport            # no model: markup, calendars
    await aread_bookings(path, client=None, *, today=None)          # the same, and text via the model
    parse_bookings(data, name, ...) / await aparse_bookings(data, name, client, ...)  # bytes in memory

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
"""

from .reader import aparse_bookings, aread_bookings, detect_kind, parse_bookings, read_bookings
from .result import BookingsImport
from .text_booking import RejectedReading

__all__ = ["BookingsImport", "RejectedReading", "aparse_bookings", "aread_bookings", "detect_kind",
           "parse_bookings", "read_bookings"]
