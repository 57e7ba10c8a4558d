"""Tool adapters (one protocol each) and the executor policy wrapped around them."""

from .toolbox import ToolOverrides, Toolbox, build_toolbox

__all__ = ["ToolOverrides", "Toolbox", "build_toolbox"]
