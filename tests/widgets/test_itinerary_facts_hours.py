"""A visit's hours as its row says them (issue 32 §5): a place open round the clock (Shibuya's
crossing, a 24-hour ramen shop, written "open 00:00-23:59 on …" by the synthesizer) reads "open all
day", not "open 0–23:59"; other hours keep their short form."""

from __future__ import annotations

from tests.multi_city_trip import multi_city_itinerary
from widgets.itinerary_facts import opening_hours


def _sight():
    return next(a for d in multi_city_itinerary().days for a in d.activities if a.kind.value == "attraction")


def test_a_place_open_round_the_clock_is_open_all_day() -> None:
    sight = _sight()
    for said in ("open 00:00-23:59 on Wednesday 2027-04-14", "open 00:00-24:00 on Wednesday 2027-04-14"):
        assert opening_hours(sight.model_copy(update={"notes": said})) == "open all day"
    assert opening_hours(sight.model_copy(update={"notes": "open 09:00-21:00 on Wednesday 2027-06-16"})) == \
        "open 9\u201321"
    assert opening_hours(sight.model_copy(update={"notes": "open 00:00-02:00, 18:00-23:59 on Friday 2027-06-18"})) \
        == "open 0\u20132, 18\u201323:59"
    road = "Diner. Open 00:00\u201323:59 on Fri 14 May 2027 (published hours)."  # engine/roadtrip/stop_hours.py
    assert opening_hours(sight.model_copy(update={"notes": road})) == "open all day"
