"""Bounded, deterministic repair: four moves (seed §7.1) and the cycle loop."""

from .loop import MAX_CYCLES, MAX_MOVES_PER_CYCLE, RepairResult, repair
from .moves import RepairContext

__all__ = ["MAX_CYCLES", "MAX_MOVES_PER_CYCLE", "RepairContext", "RepairResult", "repair"]
