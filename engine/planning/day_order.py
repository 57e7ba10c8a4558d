"""The best order of one free stretch's sights (issue 31 §2): the day builder picks the sights
greedily, one at a time from where the traveller stands; this pass then tries every order of those
same sights (exact branch and bound up to ``EXACT_STOPS``) by replaying the builder's own steps —
meals when due, waiting for an opening, the transfer and buffer to what comes next — and keeps
the shortest route that still has every meal the greedy fill had (a shorter day without its
dinner is no better day) (as the crow flies: what a map shows), the last leg home or to the next fixed
slot included. An order
that cannot fit every chosen sight in its opening window is no order. The greedy order stays
when nothing is shorter, so a day is never worse than the greedy fill.
"""

from __future__ import annotations

from typing import Protocol

from engine.models import Attraction

from .day_state import DayState, Limit, snapshot


class Filler(Protocol):
    """What the order pass needs of the day builder: its own steps, and the stretch's last leg."""

    light: bool  # True while the search replays: the state moves, no slots are written
    meal_memo: dict  # the search's ranked tables by moment (cleared for each stretch)

    def run(self, state: DayState, limit: Limit, venues: list[Attraction], restaurants: list[Attraction], *,
            one_visit: bool = False, budget: bool = True) -> bool: ...

    def home_metres(self, s: DayState, limit: Limit) -> float: ...

EXACT_STOPS = 9  # every order of this many sights is tried (pruned by the best found so far)
MAX_NODES = 20_000  # a bound on the replays of one stretch: the greedy order stays past it


def reorder(builder: Filler, start: DayState, limit: Limit, venues: list[Attraction],
            restaurants: list[Attraction], greedy: DayState) -> DayState:
    """The stretch filled with the same sights in their shortest order (``greedy`` if none is
    shorter). ``start``: the state before the stretch was filled; ``venues``: the sights the greedy
    fill chose, in its order."""
    if len(venues) < 2 or len(venues) > EXACT_STOPS:
        return greedy
    search = _Search(builder, limit, restaurants, venues)
    search.meals = (greedy.had_lunch, greedy.had_dinner)  # an order may not cost the day a meal
    search.best_cost = greedy.metres + builder.home_metres(greedy, limit) - start.metres
    builder.light, builder.meal_memo = True, {}
    try:
        search.walk(snapshot(start), (), start.metres)
    finally:
        builder.light = False
    if search.best is None:
        return greedy
    best = snapshot(start)  # the winning order once more, writing its slots
    for i in search.best:
        builder.run(best, limit, [venues[i]], restaurants, one_visit=True, budget=False)
    builder.run(best, limit, [], restaurants)
    return best


class _Search:
    def __init__(self, builder: Filler, limit: Limit, restaurants: list[Attraction],
                 venues: list[Attraction]) -> None:
        self.builder, self.limit, self.restaurants, self.venues = builder, limit, restaurants, venues
        self.best_cost = 0.0
        self.best: tuple[int, ...] | None = None  # the shortest order found, as indices of ``venues``
        self.nodes = 0
        self.meals = (False, False)  # the greedy fill's (lunch, dinner): every order keeps them

    def walk(self, state: DayState, order: tuple[int, ...], base: float) -> None:
        if len(order) == len(self.venues):
            done = snapshot(state)
            self.builder.run(done, self.limit, [], self.restaurants)  # the meals still due
            cost = done.metres + self.builder.home_metres(done, self.limit) - base
            kept = done.had_lunch >= self.meals[0] and done.had_dinner >= self.meals[1]
            if kept and cost < self.best_cost:
                self.best_cost, self.best = cost, order
            return
        for i in range(len(self.venues)):
            if i in order:
                continue
            self.nodes += 1
            if self.nodes > MAX_NODES:
                return
            nxt = snapshot(state)
            placed = self.builder.run(nxt, self.limit, [self.venues[i]], self.restaurants, one_visit=True,
                                      budget=False)
            if placed and nxt.metres - base < self.best_cost:
                self.walk(nxt, (*order, i), base)
