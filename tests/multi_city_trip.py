"""A multi-city itinerary built by hand (issue 33), for the map, panel and export tests while the multi-city run
is being built: Lisbon (3 nights) then Porto (2 nights) by an estimated train, flying from JFK — two stays, one
leg, the leg day's activities in both cities. Real places and coordinates (OpenStreetMap)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

from engine.models import (Activity, ChoiceKind, CostBreakdown, DayItinerary, Geo, ItineraryV1, LegRequest,
                           MultiCityIntent, PlannedLeg, Stay, TimeWindow)

START = date(2027, 5, 10)
LISBON_HOTEL = (38.7139, -9.1394)
PORTO_HOTEL = (41.1456, -8.6110)
SANTA_APOLONIA = (38.7138, -9.1227)
CAMPANHA = (41.1489, -8.5856)
WEST = timezone(timedelta(hours=1))  # Portugal in May (WEST, UTC+1)
CREATED = datetime(2027, 1, 10, 12, 0, tzinfo=timezone.utc)

# (day, stay, [(start, end, kind, role, name, (lat, lon) | None)])
DAYS = [
    (0, 0, [("10:00", "11:00", "flight", "arrival", "Arrive at LIS", (38.7742, -9.1342)),
            ("13:00", "14:00", "lodging", "checkin", "Hotel Avenida Palace", LISBON_HOTEL),
            ("15:00", "17:00", "attraction", "activity", "Castelo de São Jorge", (38.7139, -9.1335))]),
    (1, 0, [("09:30", "12:00", "attraction", "activity", "Mosteiro dos Jerónimos", (38.6979, -9.2068)),
            ("12:30", "13:30", "meal", "meal", "Pastéis de Belém", (38.6975, -9.2032)),
            ("14:30", "16:00", "attraction", "activity", "Torre de Belém", (38.6916, -9.2160))]),
    (2, 0, [("10:00", "12:00", "attraction", "activity", "Museu Calouste Gulbenkian", (38.7372, -9.1545)),
            ("13:00", "14:00", "meal", "meal", "Time Out Market", (38.7069, -9.1459))]),
    (3, 1, [("09:00", "09:30", "lodging", "checkout", "Hotel Avenida Palace", LISBON_HOTEL),
            ("10:30", "13:29", "transit", "leg", "Train Lisboa Santa Apolónia → Porto Campanhã", SANTA_APOLONIA),
            ("14:30", "15:00", "lodging", "checkin", "Hotel Infante Sagres", PORTO_HOTEL),
            ("16:00", "17:30", "attraction", "activity", "Livraria Lello", (41.1469, -8.6149))]),
    (4, 1, [("09:30", "11:00", "attraction", "activity", "Palácio da Bolsa", (41.1414, -8.6156)),
            ("11:30", "12:30", "attraction", "activity", "Ponte Luís I", (41.1399, -8.6094)),
            ("13:00", "14:00", "meal", "meal", "Café Santiago", (41.1473, -8.6063))]),
    (5, 1, [("09:00", "09:30", "lodging", "checkout", "Hotel Infante Sagres", PORTO_HOTEL),
            ("13:00", "15:00", "flight", "departure", "Depart from OPO", (41.2481, -8.6814))]),
]


def _hhmm(text: str) -> time:
    return time.fromisoformat(text)


def _activity(day: int, i: int, spec: tuple) -> Activity:
    start, end, kind, role, name, where = spec
    return Activity(id=f"d{day + 1}-{role}-{i}", ref="leg_0" if role == "leg" else "", role=role,
                    window=TimeWindow(start=_hhmm(start), end=_hhmm(end)), kind=ChoiceKind(kind), name=name,
                    geo=Geo(lat=where[0], lon=where[1]) if where else None, notes="", cost_usd_cents=1000 * i)


def intent(mode: str = "train") -> MultiCityIntent:
    return MultiCityIntent(start_date=START, stays=[Stay(city="Lisbon", nights=3), Stay(city="Porto", nights=2)],
                           legs=[LegRequest(mode=mode)], origin_airport="JFK", budget_usd_cents=400_000)


def leg(source: str = "estimated") -> PlannedLeg:
    departure = datetime.combine(START + timedelta(days=3), time(10, 30), tzinfo=WEST)
    return PlannedLeg(index=0, from_city="Lisbon", to_city="Porto", mode="train", from_name="Lisboa Santa Apolónia",
                      to_name="Porto Campanhã", from_geo=Geo(lat=SANTA_APOLONIA[0], lon=SANTA_APOLONIA[1]),
                      to_geo=Geo(lat=CAMPANHA[0], lon=CAMPANHA[1]), departure=departure,
                      arrival=departure + timedelta(hours=2, minutes=59), distance_km=337.0, fare_usd_cents=3_500,
                      source=source, why="2 h 59 by train beats 4 h door to door by air")


def multi_city_itinerary(source: str = "estimated") -> ItineraryV1:
    return ItineraryV1(
        itinerary_id="itn_lisbon_porto", intent=intent(),
        days=[DayItinerary(date=START + timedelta(days=n), stay=stay,
                           activities=[_activity(n, i, spec) for i, spec in enumerate(specs)])
              for n, stay, specs in DAYS],
        legs=[leg(source)],
        cost_breakdown=CostBreakdown(
            flights_usd_cents=110_000, lodging_usd_cents=90_000, attractions_usd_cents=8_000,
            transit_usd_cents=5_000, daily_spend_usd_cents=30_000, total_usd_cents=243_000,
            currency_disclaimer="Converted at fixture FX rates."),
        decisions=[], citations=[], created_at=CREATED, trace_id="trace-lisbon-porto")
