"""A multi-city itinerary in the itinerary panel (issue 33 §4): grouped by stay — each stay's row with its days
under it, each leg a row between them ("Train … 10:30–13:29, estimated") — while the days, the activities and
the selection behave as in a one-city trip. Renders the panel offscreen to /tmp/itinerary-stays.png."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from tests.multi_city_trip import multi_city_itinerary
from widgets.itinerary_panel import ItineraryModel, ItineraryPanel

LEG = "Train Lisboa Santa Apolónia \u2192 Porto Campanhã 10:30\u201313:29, estimated"


def rows(model: ItineraryModel) -> list[tuple[str, str]]:
    return [(model.index(r, 0).data(ItineraryModel.ItemTypeRole), model.index(r, ItineraryModel.COL_NAME).data())
            for r in range(model.rowCount())]


def test_stays_group_their_days_and_legs_sit_between(qtbot) -> None:
    itinerary = multi_city_itinerary()
    model = ItineraryModel()
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)  # noqa: F841
    model.set_itinerary(itinerary)
    assert rows(model) == [("stay", "Lisbon"), ("leg", LEG), ("stay", "Porto")]
    lisbon, porto = model.index(0, 0), model.index(2, 0)
    assert lisbon.data(ItineraryModel.HeaderRole).startswith("Lisbon \u00b7 3 nights \u00b7 Mon 10 May")
    assert [model.index(r, ItineraryModel.COL_KIND, lisbon).data() for r in range(model.rowCount(lisbon))] == [
        "Day 1", "Day 2", "Day 3"]
    assert [model.index(r, ItineraryModel.COL_KIND, porto).data() for r in range(model.rowCount(porto))] == [
        "Day 4", "Day 5", "Day 6"]
    assert model.index(1, ItineraryModel.COL_KIND).data() == "Train"
    assert model.index(1, ItineraryModel.COL_COST).data() == "est. $35.00"
    assert "beats 4 h door to door" in model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
    # every day and activity is where the map sync looks for it
    for d, day in enumerate(itinerary.days):
        assert model.day_index(d).data(ItineraryModel.DayIndexRole) == d
        for activity in day.activities:
            assert model.activity_index(activity.id).data(ItineraryModel.ActivityIdRole) == activity.id
    leg_activity = itinerary.days[3].activities[1]
    index = model.activity_index(leg_activity.id)
    assert index.siblingAtColumn(ItineraryModel.COL_KIND).data() == "Train"
    assert index.siblingAtColumn(ItineraryModel.COL_NAME).data() == LEG


def test_the_panel_shows_the_trip_by_stay(qtbot) -> None:
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 760)
    panel.set_itinerary(multi_city_itinerary())
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.title.text().startswith("Lisbon \u2192 Porto \u00b7 6 days from JFK")
    selected = []
    panel.day_selected.connect(selected.append)
    panel.tree.setCurrentIndex(panel.model.index(2, 0))  # Porto's row: its first day
    assert selected == [3]
    assert panel.select_activity("d4-leg-1")
    qtbot.wait(50)
    panel.grab().save("/tmp/itinerary-stays.png")


def test_a_stay_row_moves_a_night_to_the_next_city(qtbot) -> None:
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.set_itinerary(multi_city_itinerary())
    asked = []
    panel.replan_requested.connect(lambda intent, what: asked.append((intent, what)))
    assert panel.stay_menu(panel.model.index(1, 0)) is None  # the leg's row has no menu
    menu = panel.stay_menu(panel.model.index(0, 0))  # Lisbon, 3 nights; Porto, 2
    assert [a.text() for a in menu.actions()] == ["Move a night from Lisbon to Porto",
                                                  "Move a night from Porto to Lisbon"]
    menu.actions()[0].trigger()
    [(intent, what)] = asked
    assert [(s.city, s.nights) for s in intent.stays] == [("Lisbon", 2), ("Porto", 3)]
    assert what == "Move a night from Lisbon to Porto" and intent.days == 6


def test_no_move_leaves_a_stay_without_a_night() -> None:
    from widgets.itinerary_stays import night_moves
    one = multi_city_itinerary().intent.model_copy(update={"stays": [
        s.model_copy(update={"nights": 1}) for s in multi_city_itinerary().intent.stays]})
    assert night_moves(one, 0) == []
