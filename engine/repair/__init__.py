"""Bounded, deterministic repair: four moves (seed §7.1) and the cycle loop; then the time a
removal freed is filled (``fill.py``).

the four moves in priority order (swap airport, downgrade hotel, reorder days, replace activity — which also
retimes or, as a last resort, frees the slot), ≤ 2 moves/cycle, ≤ 3 cycles, a `RepairDiff` per cycle; locked
slots are never touched. `fill.py` (`repair_and_fill`, the pipeline's repair node): after a repair with
nothing blocking, each day the traveller removed a visit or meal from (`PlanV1.removed`, written by
`edits.Remove`) gets another place in its free time — a sight while the day has fewer than the builder's
three, a lunch/dinner it lacks — open then, reached and left in time (`retime.fit_window`), within budget,
never a removed place, existing slots unmoved; candidates in a fixed order, ≤ 12 verifications a day, each
insertion verified
"""

from .fill import repair_and_fill
from .loop import MAX_CYCLES, MAX_MOVES_PER_CYCLE, RepairResult, repair
from .moves import RepairContext

__all__ = ["MAX_CYCLES", "MAX_MOVES_PER_CYCLE", "RepairContext", "RepairResult", "repair", "repair_and_fill"]
