"""A multi-city trip's rows a traveller reads at a glance (issue 32 §5). A city stay's two hotel rows told apart (issue 32 §5): on a multi-city trip's move day the itinerary
showed "Stay · Hotel Avenida Palace" (Lisbon's, left that morning) and then "Stay · Hotel Infante
Sagres" (Porto's), both under Porto — a traveller could not tell which hotel was left and which was
begun. Each now says it: "· check-out", "· check-in". And the leg between two stays, a row drawn as one
line across the columns (its Cost cell unseen), says its fare in that line. Renders /tmp/itinerary-hotel-rows.png."""

from __future__ import annotations

from tests.multi_city_trip import multi_city_itinerary
from widgets.itinerary_panel import ItineraryModel, ItineraryPanel


def test_the_move_day_says_which_hotel_is_left_and_which_is_begun(qtbot) -> None:
    itinerary = multi_city_itinerary()
    model = ItineraryModel()
    model.set_itinerary(itinerary)
    move_day = itinerary.days[3]
    hotels = [a for a in move_day.activities if a.kind.value == "lodging"]
    assert [a.role for a in hotels] == ["checkout", "checkin"]
    said = [model.activity_index(a.id, ItineraryModel.COL_NAME).data() for a in hotels]
    assert said == ["Hotel Avenida Palace \u00b7 check-out", "Hotel Infante Sagres \u00b7 check-in"]
    assert [model.activity_index(a.id, ItineraryModel.COL_KIND).data() for a in hotels] == ["Stay", "Stay"]
    first = next(a for a in itinerary.days[0].activities if a.role == "checkin")
    assert model.activity_index(first.id, ItineraryModel.COL_NAME).data() == "Hotel Avenida Palace \u00b7 check-in"


def test_the_panel_shows_the_hotel_rows(qtbot) -> None:
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 760)
    panel.set_itinerary(multi_city_itinerary())
    panel.show()
    qtbot.waitExposed(panel)
    panel.tree.expandAll()
    leg = panel.model.index(1, 0)
    assert panel.model.index(1, 0).data(ItineraryModel.ItemTypeRole) == "leg"
    assert panel.tree.isFirstColumnSpanned(1, leg.parent())  # only the first cell is drawn
    assert leg.data().endswith("10:30\u201313:29, estimated \u00b7 est. $35.00")
    panel.tree.scrollTo(panel.model.activity_index("d4-leg-1"))
    qtbot.wait(50)
    assert panel.grab().save("/tmp/itinerary-hotel-rows.png")
