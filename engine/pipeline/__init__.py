"""The async planning pipeline and its in-process event stream."""

from .control import CancelToken, Checkpoints, NodeMemo
from .events import EventEmitter, ThrottledStream, replay_after
from .run import PlanningSession, PlanResult

__all__ = ["CancelToken", "Checkpoints", "EventEmitter", "NodeMemo", "PlanResult",
           "PlanningSession", "ThrottledStream", "replay_after"]
