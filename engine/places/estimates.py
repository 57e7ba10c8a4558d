"""Estimated prices for a city with no fixture prices: US base figures × the country's price level.

Every figure is USD in major units (2 decimals), per person unless it says otherwise, and an
**estimate**: a rough US average scaled linearly by ``price_levels.price_level(country)`` (US = 1.0,
Portugal 0.55, Switzerland 1.1). A GDP-wide price level is only a proxy for what a visitor pays
(hotels and sights aimed at foreigners often cost more than it suggests in cheap countries), which
is why callers label these prices as estimated. The US bases, and why:

- hotel night (one room): by stars 1★ $90, 2★ $120, 3★ $180, 4★ $260, 5★ $450; without stars by
  tier budget $120, mid $180, luxury $330 — the US average daily rate is about $155, and city-centre
  rooms, where visitors stay, cost more (the New York fixture: budget $75–150, mid $220–260);
- admission: museum $22, gallery $15, zoo $30, aquarium $40, castle/palace $20, fort $12,
  archaeological site $15, theme park $90 (typical US adult tickets: MoMA and the Met $30, many
  city museums $15–25, large zoos $25–35, aquariums $35–45); parks, gardens, viewpoints, squares,
  monuments, churches and temples, markets and anything else: free; a place OSM marks paid
  (``fee=yes``) with no amount: a church or temple $15 (a gallery's ticket), anything else its kind's
  figure or a museum's. Where ``price_levels.json`` has a published level for the country and
  kind (a temple in Japan ¥500, a cathedral in Spain €11), that level wins (``pack_city._admission``);
- meal: lunch $20, dinner $40 at a restaurant (a casual lunch, a mid-range dinner for one with tip,
  no alcohol); a café 60% of that (lunch $12, dinner $24);
- daily allowance $35 per traveller (breakfast ~$12, coffee and water ~$10, snacks and small things
  ~$13): the "meals and incidentals" beside the planned meals — 35% of a $100 US day, the share
  ``engine.costs.ALLOWANCE_SHARE`` keeps of a fixture city's daily spend;
- transit: metro $2.75, bus $2.50 a ride; taxi $3.50 + $1.75/km (New York $3.00 + $2.17/km,
  Chicago $3.25 + $1.40/km); airport to the centre by public transport $10 (New York JFK $11.50,
  Chicago O'Hare $5, San Francisco BART ~$10).
"""

from __future__ import annotations

from typing import Literal

from engine.models import Tier

HOTEL_BY_STARS_USD = {1: 90.0, 2: 120.0, 3: 180.0, 4: 260.0, 5: 450.0}
HOTEL_BY_TIER_USD = {Tier.budget: 120.0, Tier.mid: 180.0, Tier.luxury: 330.0}

# Venue words as the planner (VenueType) and OpenStreetMap (tourism=*, historic=*) say them; every
# other word (park, viewpoint, square, church, temple, market, landmark, ...) is free to enter.
PAID_ADMISSION_USD = {"museum": 22.0, "gallery": 15.0, "zoo": 30.0, "aquarium": 40.0, "castle": 20.0,
                      "palace": 20.0, "fort": 12.0, "archaeological_site": 15.0, "theme_park": 90.0}

# A place of worship OSM marks paid (``fee=yes``) where no published level of its country says how
# much: a gallery's ticket, not a museum's (the $14.30 "temple" of issue 31 was a museum's).
WORSHIP_FEE_USD = 15.0
WORSHIP_KINDS = frozenset({"temple", "shrine", "cathedral", "church", "monastery", "place_of_worship"})

MEAL_USD = {"lunch": 20.0, "dinner": 40.0}
CAFE_SHARE = 0.6  # a café's lunch or dinner against a restaurant's
DAILY_ALLOWANCE_USD = 35.0
ALLOWANCE_SHARE_OF_DAILY_SPEND = 0.35  # = engine.costs.ALLOWANCE_SHARE (a test keeps them equal)

TRANSIT_USD = {"metro": 2.75, "bus": 2.50, "taxi_base": 3.50, "taxi_per_km": 1.75, "airport_transfer": 10.0}

# Stars → tier: 1–2 budget, 3 mid, 4–5 luxury; an unrated place is taken as mid.
BUDGET_MAX_STARS = 2
LUXURY_MIN_STARS = 4


def tier_of_stars(stars: int | None) -> Tier:
    if stars is None:
        return Tier.mid
    if stars <= BUDGET_MAX_STARS:
        return Tier.budget
    return Tier.luxury if stars >= LUXURY_MIN_STARS else Tier.mid


def hotel_night(tier: Tier, stars: int | None, level: float) -> float:
    """One room, one night. The stars, when known, say more than the tier they were sorted into."""
    if stars is not None:
        base = HOTEL_BY_STARS_USD[min(5, max(1, int(stars)))]
    else:
        base = HOTEL_BY_TIER_USD[Tier(tier)]
    return _scaled(base, level)


def admission(venue_type: str, level: float) -> float:
    """One adult ticket; free for the open places (and for a word neither list knows)."""
    word = str(getattr(venue_type, "value", venue_type)).strip().lower()
    return _scaled(PAID_ADMISSION_USD.get(word, 0.0), level)


def paid_admission(kind: str, level: float) -> float:
    """One adult ticket of a place known to charge (OSM ``fee=yes``) with no amount tagged and no
    published level of its country: a worship place's fee, or the kind's base, else a museum's."""
    if kind in WORSHIP_KINDS:
        return _scaled(WORSHIP_FEE_USD, level)
    return admission(kind, level) or _scaled(PAID_ADMISSION_USD["museum"], level)


def meal(meal: Literal["lunch", "dinner"], level: float, *, cafe: bool = False) -> float:
    """One person's lunch or dinner, without alcohol."""
    if meal not in MEAL_USD:
        raise ValueError(f"meal must be 'lunch' or 'dinner', got {meal!r}")
    return _scaled(MEAL_USD[meal] * (CAFE_SHARE if cafe else 1.0), level)


def daily_allowance(level: float) -> float:
    """Per traveller per day, beside the planned meals (breakfast, coffee, small things)."""
    return _scaled(DAILY_ALLOWANCE_USD, level)


def daily_spend(level: float) -> float:
    """A whole day's meals and incidentals: what a fixture city's ``daily_spend`` holds (the
    planner keeps ``ALLOWANCE_SHARE_OF_DAILY_SPEND`` of it beside the priced meals)."""
    return _scaled(DAILY_ALLOWANCE_USD / ALLOWANCE_SHARE_OF_DAILY_SPEND, level)


def transit_fares(level: float) -> dict[str, float]:
    """metro and bus (one ride), taxi_base and taxi_per_km, airport_transfer (public transport)."""
    return {name: _scaled(usd, level) for name, usd in TRANSIT_USD.items()}


def _scaled(us_usd: float, level: float) -> float:
    if not level > 0:
        raise ValueError(f"a price level must be positive, got {level!r}")
    return round(us_usd * level, 2)
