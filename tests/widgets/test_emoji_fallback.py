"""Issue 22 §2.11: where the system has no emoji font, the reaction buttons show their word, never
an empty box; where it has one, the emoji and the word."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics

from widgets.glyphs import drawable
from widgets.reactions_bar import EMOJIS, ReactionsBar


def test_without_an_emoji_font_the_buttons_show_words(qtbot, tmp_path):
    bar = ReactionsBar(can_draw=lambda text, font: False)
    qtbot.addWidget(bar)
    bar.set_counts({"\U0001F44D": 2})
    assert [b.text() for b in bar.buttons.values()] == ["Like 2", "Love", "Yes!", "Hmm", "No"]
    bar.show()
    bar.grab().save(str(tmp_path / "reactions-no-emoji-font.png"))


def test_with_an_emoji_font_the_buttons_show_emoji_and_words(qtbot):
    bar = ReactionsBar(can_draw=lambda text, font: True)
    qtbot.addWidget(bar)
    assert [b.text() for b in bar.buttons.values()] == [f"{e} {w}" for e, w in EMOJIS]


def test_what_the_real_check_lets_through_has_glyphs(qtbot, tmp_path):
    """Whatever this machine has installed: a button shows an emoji only if a font draws it."""
    bar = ReactionsBar()
    qtbot.addWidget(bar)
    bar.show()
    for emoji, button in bar.buttons.items():
        shown = button.text()
        if shown.startswith(emoji):
            assert drawable(emoji, button.font())
        else:
            assert not drawable(emoji, button.font()) and emoji not in shown
    metrics = QFontMetrics(bar.font())
    assert drawable("Like", bar.font()) and metrics.inFontUcs4(ord("L"))
    assert not drawable("\U000F0000")  # a private-use code point no font draws
    bar.grab().save(str(tmp_path / "reactions.png"))
