""""Something changed": a saved city trip re-planned from now on around one disruption (issue 36 §2).

`disruption.py` (the kinds and their values, read once), `past.py` (what is past at now: frozen),
`trip_state.py` (a saved version's plan and tool answers), `changes.py` (each kind applied;
`delay.py`: a late flight kept in the intent as booked),
`placing.py` (the placement steps, over the repair's moves), `replan.py` (freeze → change → bounded
repair → verify → write), `glance.py` (the change in one line), `scoring.py` (preservation and
responsiveness, for the eval suite), `road.py` (a road trip: a late start pushes the night's stop,
a stop skipped or closed; `road_night.py`: no beds in tonight's town, the night moves on;
`road_timeline.py`: a road day's timeline moved), `rebooked.py` (a new flight home mid-trip).
"""

from .disruption import KINDS, Disruption, parse_disruption
from .past import Moment, moment_in_trip
from .replan import Replanned, replan_from_now
from .trip_state import TripState, load_trip_state

__all__ = ["KINDS", "Disruption", "Moment", "Replanned", "TripState", "load_trip_state", "moment_in_trip",
           "parse_disruption", "replan_from_now"]
