"""Building city plans from tool answers: inputs, branches, the day frame and the greedy day fill.

`inputs.py` gathers tool answers through the executor (seed §12.1: flights/lodging outages end the plan;
attractions/dining outages leave their lists empty, the synthesizer writes one grey `omitted` row a day; a
transit failure switches the trip's legs to `omitted_leg` and `TripFacts.omitted_tools` adds it to
`degraded_tools`); `branches.py` fans out ≤ 4 branches (≤ 2 airports × 2 hotel tiers, tiers from a 40%
lodging share of the budget, flights that fit the hotel's check-in/checkout); `builder.py` frames each
branch (arrival, check-in, locked slots, checkout, departure) and `day_builder.py` fills free time greedily
with venues and meals that fit hours, weather, kid evenings, transfers, buffers and the last metro (meals:
the nearest table under a per-person cap — 40% of what the budget leaves after flights, beds and the
allowance, over two meals a day — else the least dear); `selector.py` scores branches (−cost_z − travel_z +
preference_fit + weather_score, frozen constants); `integrity.py` re-derives a saved city itinerary with
the builder's own choice constructors (`tripwright verify`; the road half: engine/roadtrip/integrity.py)
"""
