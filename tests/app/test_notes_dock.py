"""The Notes dock over a real SQLite store: Tripwright's notes listed at first use, import by file
and by drag-and-drop, delete with undo, the ask box with scores and sources, and a citation in the
itinerary opening its passage. Saves a screenshot of the dock to /tmp/tripwright-notes-dock.png."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from tests.app.conftest import wait_task
from tests.app.test_store_wiring import db_url, home, open_window, paris  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)

SHOT = "/tmp/tripwright-notes-dock.png"


def side_tab(window) -> str:
    """The current tab of the dock tab bar that holds Notes (the side panel the traveller sees)."""
    from PySide6.QtWidgets import QTabBar

    for bar in window.findChildren(QTabBar):
        titles = [bar.tabText(i) for i in range(bar.count())]
        if "Notes" in titles and bar.parent() is window:
            return bar.tabText(bar.currentIndex())
    raise AssertionError("Notes shares no tab bar")


def listed(panel) -> list[str]:
    return [panel.items.item(i).text() for i in range(panel.items.count())]


def test_notes_dock_import_delete_undo_ask_and_citation(qtbot, open_window, tmp_path):  # noqa: F811
    window = open_window()
    panel = window.notes_panel
    assert window.notes_dock.isVisibleTo(window)
    window.notes_dock.raise_()
    qtbot.waitUntil(lambda: any("Tripwright" in t for t in listed(panel)), timeout=20_000)
    assert panel.destination() == "paris"

    tips = tmp_path / "louvre-tips.md"
    tips.write_text("# Friend's Louvre tips\n\nMusée du Louvre: the Denon wing is quietest on Friday evenings. "
                    "Write to anna@example.org for the rest.")
    panel.import_files([str(tips)])
    qtbot.waitUntil(lambda: any("Friend's Louvre tips" in t for t in listed(panel)), timeout=20_000)

    dropped = tmp_path / "orsay.txt"
    dropped.write_text("Orsay: the clock window on the fifth floor frames Sacre-Coeur.")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(dropped))])
    enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier)
    assert QApplication.sendEvent(panel, enter) and enter.isAccepted()  # Qt drops only after an accepted enter
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                      Qt.KeyboardModifier.NoModifier)
    assert QApplication.sendEvent(panel, drop) and drop.isAccepted()
    qtbot.waitUntil(lambda: any("orsay" in t for t in listed(panel)), timeout=20_000)
    assert len(listed(panel)) == 3

    panel.items.setCurrentRow(next(i for i, t in enumerate(listed(panel)) if "orsay" in t))
    panel.delete_button.click()
    qtbot.waitUntil(lambda: panel.undo_bar.isVisible(), timeout=10_000)
    assert len(listed(panel)) == 2 and "orsay" in panel.undo_label.text()
    panel.undo_button.click()
    qtbot.waitUntil(lambda: len(listed(panel)) == 3, timeout=10_000)

    panel.question.setText("Louvre Denon wing")
    panel.ask_button.click()
    qtbot.waitUntil(lambda: "score" in panel.answer.toPlainText(), timeout=20_000)
    shown = panel.answer.toPlainText()
    assert "Denon wing is quietest" in shown and "louvre-tips.md" in shown and "score 1.00" in shown
    assert "anna@example.org" not in shown and "[email removed]" in shown
    panel.grab().save(SHOT)

    panel.question.setText("best ramen in Sapporo")
    panel.ask_button.click()
    qtbot.waitUntil(lambda: "Information not available" in panel.answer.toPlainText(), timeout=20_000)

    wait_task(qtbot, window.controller.plan_intent(paris()))
    itinerary = window.itinerary_panel.itinerary()
    louvre = next(a for d in itinerary.days for a in d.activities if a.name == "Musée du Louvre")
    assert "From your notes: Musée du Louvre: the Denon wing is quietest" in louvre.notes
    itinerary_panel = window.itinerary_panel
    window.itinerary_dock.raise_()
    qtbot.waitUntil(lambda: side_tab(window) == "Itinerary", timeout=2_000)
    itinerary_panel.tree.setCurrentIndex(itinerary_panel.model.activity_index(louvre.id))  # as a click does
    qtbot.waitUntil(lambda: "cited in the itinerary" in panel.answer.toPlainText(), timeout=20_000)
    assert "Denon wing" in panel.answer.toPlainText()
    # Issue 32 §6: the Louvre row opened Notes; the side panel keeps its tab, and the status bar
    # says where the passage is.
    qtbot.wait(200)
    assert side_tab(window) == "Itinerary"
    assert "Notes tab" in window.statusBar().currentMessage()
    window.grab().save(str(tmp_path / "louvre-row-keeps-itinerary.png"))
    window.grab().save("/tmp/trust-louvre-row.png")


def test_the_embedding_model_saved_in_settings_reaches_the_notes(qtbot, open_window, tmp_path):  # noqa: F811
    from tests.notes.embedding_server import EmbeddingServer

    window = open_window()
    panel = window.notes_panel
    qtbot.waitUntil(lambda: any("Tripwright" in t for t in listed(panel)), timeout=20_000)
    from engine.notes import local_model

    # no endpoint: the local model, nothing sent anywhere
    assert window.notes.embedding_model == local_model.MODEL
    progress = []
    window.notes.reembedding.connect(lambda done, total: progress.append((done, total)))
    panel.question.setText("Which Louvre entrance avoids the queue?")
    panel.ask_button.click()  # Tripwright's notes, seeded words-only, are embedded first, off the GUI thread
    qtbot.waitUntil(lambda: "Porte des Lions" in panel.answer.toPlainText(), timeout=20_000)
    assert progress and progress[-1][0] == progress[-1][1]
    assert local_model.loaded()
    with EmbeddingServer() as server:
        dialog = window.open_settings()
        dialog.endpoint_edit.setText(server.base_url)
        dialog.embedding_edit.setText("test-embed")
        dialog.save()
        assert window.settings.embedding_model == "test-embed"
        assert window.notes.embedding_model == "test-embed"
        tips = tmp_path / "eiffel.txt"
        tips.write_text("Eiffel Tower hours: 09:30 to 23:45.")
        panel.import_files([str(tips)])
        qtbot.waitUntil(lambda: any("eiffel" in t for t in listed(panel)), timeout=20_000)
        assert server.requests and {r["model"] for r in server.requests} == {"test-embed"}
        assert "Eiffel Tower hours: 09:30" in " ".join(server.texts())
        panel.question.setText("Eiffel timetable")  # only the vectors know timetable = hours
        panel.ask_button.click()
        # (the Louvre answer above is still shown: wait for this question's)
        qtbot.waitUntil(lambda: "23:45" in panel.answer.toPlainText() or "not available" in
                        panel.answer.toPlainText(), timeout=20_000)
        assert "09:30 to 23:45" in panel.answer.toPlainText()
        assert server.requests[-1]["input"] == ["Eiffel timetable"]
    # the window's start-up warm-up builds the gazetteer in this test's fresh data dir: let it end
    assert window.controller.service.join(180)
