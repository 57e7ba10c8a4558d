"""The fonts names in other scripts are drawn with (issue 32): a Kyoto or Cairo trip's local names
(金閣寺, القاهرة) printed as boxes where the default family has no glyph for them.

Qt falls back through fontconfig on its own when fontconfig lists a font for the script; this
names the installed families that cover Japanese, Chinese, Korean and Arabic after the default
family explicitly (Noto first), so the PDF (``pdf_itinerary.py``) and the window pick one whenever
the system has one, whatever fontconfig's own fallback list says. A system with none draws boxes:
the README's system packages name the fonts (Debian: ``fonts-noto-cjk``)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo

# Each script and the word its own family names carry (Noto Sans CJK JP / SC / TC / KR, Noto Sans Arabic):
# one font covers all of CJK's Han characters, but each draws them the way its country writes them.
SCRIPTS = ((QFontDatabase.WritingSystem.Japanese, " jp"), (QFontDatabase.WritingSystem.SimplifiedChinese, " sc"),
           (QFontDatabase.WritingSystem.TraditionalChinese, " tc"), (QFontDatabase.WritingSystem.Korean, " kr"),
           (QFontDatabase.WritingSystem.Arabic, " arabic"))


@lru_cache(maxsize=1)
def script_families() -> tuple[str, ...]:
    """The installed families for each of ``SCRIPTS``, one per script (the script's own Noto Sans
    when there is one), each once; empty when none is installed."""
    chosen: list[str] = []
    for script, own in SCRIPTS:
        families = [f for f in QFontDatabase.families(script) if not QFontDatabase.isPrivateFamily(f)]
        if not families:
            continue
        best = min(families, key=lambda f: (own not in f.lower(), not f.lower().startswith("noto sans"),
                                            "mono" in f.lower(), f))
        if best not in chosen:
            chosen.append(best)
    return tuple(chosen)


def with_script_fallbacks(font: QFont) -> QFont:
    """``font`` with the script families after its own: its own glyphs first, theirs for the rest.
    Its own is the family it resolves to ("Sans Serif" is DejaVu Sans): a name that is no installed
    family would be skipped, and every Latin letter drawn with the first script font."""
    own = QFontInfo(font).family()
    families = [own, *(f for f in script_families() if f != own)]
    font = QFont(font)
    font.setFamilies(families)
    return font
