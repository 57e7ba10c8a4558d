"""The itinerary panel and its tree model, with a real Paris plan and a real Route 66 road trip."""

import asyncio
from datetime import date

import pytest
from PySide6.QtCore import QPoint, QModelIndex, Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QLabel
from PySide6.QtTest import QAbstractItemModelTester

from engine.frontend import intent_from_prompt
from engine.models import Violation, ViolationKind
from engine.pipeline import PlanningSession
from widgets import formatting as fmt
from widgets.itinerary_panel import ItineraryModel, ItineraryPanel, day_cost_cents

TODAY = date(2026, 11, 23)
# A tight budget: the planner downgrades the hotel (a repair) and warns about slippage (an advisory).
# ($2,020 since the Louvre's non-EU €32: at $2,000 repair would also drop the Louvre.)
PARIS = "5 days in Paris from 2027-06-15, flying from JFK, budget 2020 USD, art and food"
ROUTE66 = "LA to Chicago via Route 66, 7 days from 2027-05-03"
XSS = "<img src=x onerror=alert(1)>"


def _plan(prompt):
    session = PlanningSession(today=TODAY)
    result = asyncio.run(session.plan(intent_from_prompt(prompt, session, None)))
    assert result.status == "completed"
    return result.itinerary


@pytest.fixture(scope="module")
def paris():
    return _plan(PARIS)


@pytest.fixture(scope="module")
def route66():
    return _plan(ROUTE66)


@pytest.fixture
def panel(qtbot, paris):
    widget = ItineraryPanel()
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.set_itinerary(paris)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def ink(widget):
    """Pixels darker than the background in a rendering of ``widget``."""
    image = widget.grab().toImage()
    return sum(1 for x in range(image.width()) for y in range(image.height())
               if QColor(image.pixel(x, y)).lightness() < 128)


def hostile(itinerary):
    """The Paris plan with markup in a name, a low-confidence stop and a degraded tool."""
    day0 = itinerary.days[0]
    target = next(a for a in day0.activities if a.kind.value == "attraction")
    evil = target.model_copy(update={"name": XSS, "confidence": "low", "locked": True,
                                     "notes": "<b>geocoder</b> matched 3 places"})
    day = day0.model_copy(update={"activities": [evil if a is target else a for a in day0.activities]})
    warning = Violation(kind=ViolationKind.location_ambiguous, node_ref=target.id, blocking=False,
                        details={"message": f"{XSS} is ambiguous"})
    return itinerary.model_copy(update={"days": [day, *itinerary.days[1:]], "degraded_tools": ["weather"],
                                        "violations": [*itinerary.violations, warning]}), target.id


# -- the model alone -------------------------------------------------------------------
@pytest.mark.parametrize("which", ["paris", "route66"])
def test_model_structure_matches_the_itinerary(qapp, qtlog, request, which):
    itinerary = request.getfixturevalue(which)
    model = ItineraryModel()
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    model.set_itinerary(itinerary)
    assert model.rowCount() == len(itinerary.days)
    assert model.columnCount() == 5
    for d, day in enumerate(itinerary.days):
        day_index = model.index(d, 0)
        assert model.parent(day_index) == QModelIndex()
        assert model.rowCount(day_index) == len(day.activities)
        assert model.rowCount(model.index(d, 1)) == 0  # only column 0 has children
        assert day_index.data(ItineraryModel.ItemTypeRole) == "day"
        assert day_index.data(ItineraryModel.DayRole) == day
        assert model.index(d, ItineraryModel.COL_KIND).data() == f"Day {d + 1}"
        for r, activity in enumerate(day.activities):
            child = model.index(r, ItineraryModel.COL_NAME, day_index)
            assert child.parent() == day_index and model.parent(child).row() == d
            assert child.data().startswith(activity.name)  # then its hours, or "times est." (issue 32 §5)
            assert child.data(ItineraryModel.ActivityIdRole) == activity.id
            assert child.data(ItineraryModel.ActivityRole) == activity
            assert model.rowCount(child) == 0
            assert model.activity_index(activity.id) == model.index(r, 0, day_index)
    model.set_itinerary(None)
    assert model.rowCount() == 0
    del tester
    assert [r.message for r in qtlog.records if "FAIL" in r.message] == []


def test_activity_rows_show_time_kind_cost_and_icon(qapp, paris):
    model = ItineraryModel()
    model.set_itinerary(paris)
    flight = paris.days[0].activities[0]
    assert flight.kind.value == "flight"
    index = model.activity_index(flight.id)
    row = lambda col: index.siblingAtColumn(col)  # noqa: E731
    assert row(ItineraryModel.COL_WHEN).data() == fmt.when_cell(flight, paris.days[0].date, "Europe/Paris")
    assert row(ItineraryModel.COL_KIND).data() == "Flight"
    assert row(ItineraryModel.COL_COST).data() == "est. " + fmt.money(flight.cost_usd_cents)  # not booked
    assert row(ItineraryModel.COL_NAME).data() == f"{flight.name} \u00b7 times est."
    icon = row(ItineraryModel.COL_KIND).data(Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert model.index(0, ItineraryModel.COL_WHEN).data().startswith("Tue 15 Jun \u00b7 Day 1 \u00b7 ")  # spanned line
    assert model.index(0, ItineraryModel.COL_COST).data() == \
        "est. " + fmt.money(sum(a.cost_usd_cents for a in paris.days[0].activities))


def test_flights_show_their_true_times_across_midnight(qapp, paris):
    """The return leaves Paris at 17:05 and lands in New York at 19:30 (not "17:05–23:59");
    the outbound left New York the evening before (not "00:00–09:50")."""
    model = ItineraryModel()
    model.set_itinerary(paris)
    out, back = paris.days[0].activities[0], paris.days[-1].activities[-1]
    when = lambda a: model.activity_index(a.id).siblingAtColumn(ItineraryModel.COL_WHEN).data()  # noqa: E731
    assert when(back) == "17:05\u201319:30 EDT" and back.window.end.strftime("%H:%M") == "23:59"
    assert when(out) == "Mon 20:35\u201309:50"  # left the day before: the cell says which day
    assert "20:35 EDT (\u22121 d)\u201309:50" in model.activity_index(out.id).data(Qt.ItemDataRole.ToolTipRole)
    meal = next(a for a in paris.days[1].activities if a.kind.value == "meal")
    assert when(meal) == fmt.window(meal.window)  # on the city's clock: nothing to add
    assert "19:30 EDT" in model.activity_index(back.id).data(Qt.ItemDataRole.ToolTipRole)


def test_road_trip_days_show_anchor_drive_and_their_share_of_the_cost(qapp, route66):
    model = ItineraryModel()
    model.set_itinerary(route66)
    first = route66.days[0]
    summary = model.index(0, ItineraryModel.COL_NAME).data()
    assert first.anchor.name in summary and fmt.miles(first.drive.miles) in summary
    assert model.index(0, ItineraryModel.COL_COST).data().startswith("est. $")
    shares = sum(day_cost_cents(route66, i) for i in range(len(route66.days)))
    assert abs(shares - route66.cost_breakdown.total_usd_cents) <= len(route66.days)
    drive = model.index(0, ItineraryModel.COL_KIND, model.index(0, 0)).data()
    assert drive == "Drive"


def test_markup_in_names_is_data_not_html(qapp, paris):
    itinerary, evil_id = hostile(paris)
    model = ItineraryModel()
    model.set_itinerary(itinerary)
    index = model.activity_index(evil_id)
    assert index.siblingAtColumn(ItineraryModel.COL_NAME).data() == XSS
    tooltip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "&lt;img src=x onerror=alert(1)&gt;" in tooltip and "<img" not in tooltip
    assert "Low confidence: &lt;b&gt;geocoder&lt;/b&gt; matched 3 places" in tooltip
    marks = index.siblingAtColumn(ItineraryModel.COL_MARKS)
    assert marks.data(ItineraryModel.MarksRole) == "locked \u00b7 low conf."  # shown as icons
    assert not marks.data(Qt.ItemDataRole.DecorationRole).isNull()  # a warning sign
    assert marks.data(ItineraryModel.ConfidenceRole) == "low" and marks.data(ItineraryModel.LockedRole)


# -- the panel -------------------------------------------------------------------------
def test_panel_tree_counts_match(panel, paris):
    model = panel.tree.model()
    assert model.rowCount() == len(paris.days)
    assert sum(model.rowCount(model.index(d, 0)) for d in range(model.rowCount())) == \
        sum(len(d.activities) for d in paris.days)
    assert all(panel.tree.isExpanded(model.index(d, 0)) for d in range(model.rowCount()))
    assert panel.title.text().startswith("Paris \u00b7 5 days from JFK")
    assert panel.tree.isColumnHidden(ItineraryModel.COL_MARKS)  # nothing locked or uncertain


def test_clicking_an_activity_emits_activity_selected(qtbot, panel, paris):
    target = paris.days[1].activities[2]
    index = panel.model.activity_index(target.id, ItineraryModel.COL_NAME)
    panel.tree.scrollTo(index)
    rect = panel.tree.visualRect(index)
    with qtbot.waitSignal(panel.activity_selected, timeout=1_000) as selected:
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert selected.args == [target.id]
    assert panel.selected_activity() == target.id

    day_rect = panel.tree.visualRect(panel.model.index(1, 0))  # a day's line spans its row (issue 32 §5)
    with qtbot.waitSignal(panel.day_selected, timeout=1_000) as day:
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton,
                         pos=day_rect.topLeft() + QPoint(40, day_rect.height() // 2))
    assert day.args == [1]


def test_select_activity_selects_without_emitting(qtbot, panel, paris):
    target = paris.days[4].activities[-1]
    with qtbot.assertNotEmitted(panel.activity_selected):
        assert panel.select_activity(target.id)
    assert panel.selected_activity() == target.id
    assert panel.tree.selectionModel().isSelected(panel.model.activity_index(target.id))
    assert not panel.select_activity("no-such-activity")
    assert panel.selected_activity() is None


def test_select_activity_reveals_a_hidden_transfer(qtbot, panel, paris):
    transfer = next(a for a in paris.days[0].activities if a.role == "transfer")
    panel.show_transfers.setChecked(False)
    index = panel.model.activity_index(transfer.id)
    assert panel.tree.isRowHidden(index.row(), index.parent())
    with qtbot.assertNotEmitted(panel.activity_selected):
        panel.select_activity(transfer.id)
    assert panel.show_transfers.isChecked() and not panel.tree.isRowHidden(index.row(), index.parent())


def test_costs_advisories_repairs_and_sources_are_shown(panel, paris):
    cost = paris.cost_breakdown
    assert panel.costs.values["total"].text() == fmt.money(cost.total_usd_cents)
    assert panel.costs.values["flights"].text() == fmt.money(cost.flights_usd_cents)
    assert panel.costs.values["meals"].text() == fmt.money(cost.meals_usd_cents) != fmt.money(0)
    assert panel.costs.names["daily_spend"].text() == "Daily allowance"
    assert panel.costs.values["budget"].text() == "$2,020.00"
    assert panel.costs.values["left"].text() == fmt.money(202000 - cost.total_usd_cents)
    assert not panel.costs.budget_bar.isHidden()
    assert panel.costs.citations.text().startswith(f"{len(paris.citations)} citation")

    titles = [panel.tabs.tabText(i) for i in range(panel.tabs.count())]
    assert titles == ["Costs", f"Advisories ({len(paris.violations)})", f"Repairs ({len(paris.repairs)})",
                      f"Decisions ({len(paris.decisions)})", f"Sources ({len(paris.citations)})"]
    advisory = panel.details.advisories.item(0).text()
    assert advisory.startswith("Advisory \u00b7 tight budget (whole trip): only $")
    diff = paris.repairs[0]
    repair = panel.details.repairs.item(0).text()
    assert repair.startswith("Repair 1: Chose the budget hotel, ") and ": to keep within the budget.\n" in repair
    assert "downgrade_hotel" not in repair
    deltas = f"Cost {fmt.money_delta(diff.delta_usd_cents)} \u00b7 on the way {fmt.minutes_delta(diff.delta_minutes)}"
    assert deltas in repair
    assert fmt.money_delta(diff.delta_usd_cents).startswith("\u2212$")
    assert panel.details.sources.count() == len(paris.citations)
    assert panel.details.decisions.item(0).text().startswith("Chose the ")  # not "selector → CDG/mid"
    panel.resize(600, 700)
    panel.show()
    panel.tabs.setCurrentWidget(panel.details.repairs)
    assert panel.grab().save("/tmp/facts-repairs.png")  # looked at: the repair as a sentence
    panel.hide()
    assert panel.disclaimer.text() == paris.disclaimer
    assert panel.banner.isHidden()


def test_road_trip_costs_have_no_budget(qtbot, route66):
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.set_itinerary(route66)
    assert panel.costs.names["transit"].text() == "Fuel"
    assert panel.costs.budget_bar.isHidden() and panel.costs.values["budget"].isHidden()
    assert panel.costs.names["flights"].isHidden()
    assert "Route 66" in panel.title.text() and "Los Angeles \u2192 Chicago" in panel.title.text()


def test_markup_renders_as_literal_text_and_degradation_shows_a_banner(qtbot, panel, paris):
    itinerary, evil_id = hostile(paris)
    itinerary = itinerary.model_copy(update={"intent": itinerary.intent.model_copy(update={"city": XSS}),
                                             "disclaimer": XSS})
    panel.set_itinerary(itinerary)
    assert not panel.banner.isHidden() and "weather" in panel.banner.text()
    for label in (panel.title, panel.banner, panel.disclaimer, panel.costs.note, panel.costs.citations):
        assert label.textFormat() == Qt.TextFormat.PlainText
    assert panel.title.text().startswith(XSS)
    assert panel.disclaimer.text() == XSS
    assert any(XSS in panel.details.advisories.item(i).text() for i in range(panel.details.advisories.count()))
    assert not panel.tree.isColumnHidden(ItineraryModel.COL_MARKS)
    # What is painted is the literal text: far more ink than the same string taken as HTML.
    rich = QLabel(XSS)
    rich.setTextFormat(Qt.TextFormat.RichText)
    rich.resize(panel.disclaimer.size())
    assert ink(panel.disclaimer) > 100 > ink(rich) * 2
    assert panel.select_activity(evil_id)


def test_orientation_follows_the_width(qtbot, paris):
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.set_itinerary(paris)
    panel.resize(1100, 600)
    panel.show()
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Horizontal, timeout=2_000)
    panel.resize(450, 800)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Vertical, timeout=2_000)


# -- distance units (Settings → Distances) --------------------------------------------------
def test_distance_formats_miles_in_either_unit():
    assert fmt.distance(1234.4, "mi") == "1,234 mi" == fmt.miles(1234.4)
    assert fmt.distance(100, "km") == "161 km"
    assert fmt.distance(None, "km") == ""
    with pytest.raises(ValueError, match="unknown distance unit 'furlong'"):
        fmt.distance(1, "furlong")


def test_the_panel_shows_distances_in_the_chosen_unit_and_switches_in_place(qtbot, route66):
    panel = ItineraryPanel(distance_unit="km")
    qtbot.addWidget(panel)
    panel.set_itinerary(route66)
    first = route66.days[0]
    total = sum(d.drive.miles for d in route66.days if d.drive)
    summary = lambda: panel.model.index(0, ItineraryModel.COL_NAME).data()  # noqa: E731
    assert fmt.distance(first.drive.miles, "km") in summary() and fmt.miles(first.drive.miles) not in summary()
    assert fmt.distance(total, "km") in panel.title.text()
    assert fmt.distance(first.drive.miles, "km") in panel.model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    activity = first.activities[-1].id
    panel.select_activity(activity)
    with qtbot.waitSignal(panel.model.dataChanged, timeout=1_000):
        panel.set_distance_unit("mi")
    assert panel.distance_unit == "mi"
    assert fmt.miles(first.drive.miles) in summary() and fmt.miles(total) in panel.title.text()
    assert panel.selected_activity() == activity  # re-rendered in place: the selection stays
    with pytest.raises(ValueError):
        panel.set_distance_unit("leagues")
    assert panel.distance_unit == "mi"


def test_a_paid_booking_says_paid_where_its_price_would_be(qapp):
    """Issue 21: the traveller's own bookings. A paid hotel costs the budget nothing: its check-in
    row says "paid" rather than showing an empty price; a priced booked flight shows its price."""
    from engine.models import IntentV1
    from tests.widgets.test_intent_bookings import BACK, HOTEL, OUT
    session = PlanningSession(today=TODAY)
    intent = intent_from_prompt(PARIS.replace("2020", "4000"), session, None)
    booked = IntentV1.model_validate(intent.model_dump() | {"bookings": {"flights": [OUT, BACK], "hotel": HOTEL}})
    result = asyncio.run(session.plan(booked))
    assert result.status == "completed", result.failure
    model = ItineraryModel()
    model.set_itinerary(result.itinerary)
    rows = {(a.kind.value, a.role): a for d in result.itinerary.days for a in d.activities}
    cost = {key: model.activity_index(a.id, ItineraryModel.COL_COST).data() for key, a in rows.items()}
    assert cost[("lodging", "checkin")] == "paid" and cost[("lodging", "checkout")] == ""
    assert cost[("flight", "arrival")] == "$612.00"


# -- issue 22 §2.2: at the dock's default width -------------------------------------------------
def test_at_the_default_dock_width_what_and_when_stay_readable(qtbot, paris, tmp_path):
    from app.window_layout import ITINERARY_WIDTH

    day0 = paris.days[0]
    flight = next(a for a in day0.activities if a.kind.value == "flight")
    sight = next(a for a in paris.days[1].activities if a.kind.value == "attraction")
    marked = paris.model_copy(update={"days": [
        d.model_copy(update={"activities": [a.model_copy(update={"locked": True, "confidence": "low"})
                                            if a.id == sight.id else a for a in d.activities]})
        for d in paris.days]})
    widget = ItineraryPanel()
    qtbot.addWidget(widget)
    widget.resize(ITINERARY_WIDTH - 12, 800)  # inside the dock's frame
    widget.set_itinerary(marked)
    widget.show()
    qtbot.waitExposed(widget)
    tree, model = widget.tree, widget.model
    assert not tree.isColumnHidden(ItineraryModel.COL_MARKS)  # a locked, uncertain stop
    metrics = tree.fontMetrics()
    what = tree.columnWidth(ItineraryModel.COL_NAME)
    assert what >= metrics.horizontalAdvance("Musée Carnavalet") + 8, what  # not "…"
    # The flight left New York the evening before: the cell says which day, and it fits.
    when = model.activity_index(flight.id).siblingAtColumn(ItineraryModel.COL_WHEN)
    text = when.data()
    assert flight.start.astimezone(__import__("zoneinfo").ZoneInfo(flight.start_tz)).date() != day0.date
    assert text.startswith(f"{fmt.WEEKDAYS[(day0.date.weekday() - 1) % 7]} "), text
    indent = 2 * tree.indentation()
    assert metrics.horizontalAdvance(text) + indent <= tree.columnWidth(ItineraryModel.COL_WHEN), text
    assert "EDT" in when.data(Qt.ItemDataRole.ToolTipRole)  # the zone is in the tooltip
    marks = model.activity_index(sight.id).siblingAtColumn(ItineraryModel.COL_MARKS)
    assert marks.data(ItineraryModel.MarksRole) == "locked \u00b7 low conf."
    assert not marks.data(Qt.ItemDataRole.DecorationRole).isNull()
    widget.grab().save(str(tmp_path / "itinerary-default-width.png"))
