"""Multi-city trips (issue 33): each stay planned by the city planner as a one-city trip whose ends
are the legs (``stays.py``: the stay's own intent; ``legs_plan.py``: when each leg can leave and
what it is), then stitched into one itinerary (``stitch.py``): the days around a leg are partial —
check-out, transfer, the leg, transfer, check-in — and the legs, costs, decisions and citations
are the whole trip's. The run is :mod:`engine.pipeline.multi_city_run`.
"""

from .legs_plan import leg_query, pseudo_flight
from .stays import StayPlace, stay_budget, stay_intent, stay_offsets
from .stitch import stitch

__all__ = ["StayPlace", "leg_query", "pseudo_flight", "stay_budget", "stay_intent", "stay_offsets", "stitch"]
