"""Issue 25 §2: a teammate's idea title is shown as typed in the Group panel's tooltip — never as
rich text (a heading, a link, a local ``file:`` image)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QToolTip

from engine.store.group import IdeaRecord
from widgets.group_sections import IdeasSection

HOSTILE = "<h1>Free</h1><a href='https://evil.example'>click</a><img src='file:///etc/hosts'>"


def test_an_idea_title_is_a_plain_text_tooltip(qapp, tmp_path: Path) -> None:
    section = IdeasSection()
    section.resize(420, 200)
    section.show()
    section.set_ideas([IdeaRecord("i1", HOSTILE, 1, datetime(2027, 1, 1, tzinfo=timezone.utc), {})])
    item = section.tree.topLevelItem(0)
    tip = item.toolTip(1)
    shown = QTextDocument()
    shown.setHtml(tip)  # how QToolTip renders text Qt takes for rich text
    assert shown.toPlainText() == HOSTILE
    rect = section.tree.visualItemRect(item)
    QToolTip.showText(section.tree.viewport().mapToGlobal(rect.center()), tip, section.tree)
    qapp.processEvents()
    label = next(w for w in QApplication.topLevelWidgets() if w.metaObject().className() == "QTipLabel")
    assert label.text() == tip
    label.adjustSize()
    picture = tmp_path / "idea_tooltip.png"
    assert label.grab().save(str(picture)) and picture.stat().st_size > 0
    QToolTip.hideText()
    section.close()
