"""The intent form's city field: any city, not only the built-in ones. A mixin of ``IntentForm``.

The field is an editable combo that completes from the fixture cities and the cities whose
OpenStreetMap pack is cached (``set_known_cities``; the app lists them off the GUI thread). A
fixture city or a cached one shows its airports to tick; any other name is accepted as it is
typed: its airports and time zone are not known until its pack is fetched, so the intent carries
placeholders (``PENDING_AIRPORT``, ``PENDING_TZ``) that the engine's ``city_pack`` node replaces
with the pack city's own (``engine/pipeline/city_pack_stage.py``). The form opens no file and no
network itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import QComboBox, QCompleter, QListWidgetItem, QVBoxLayout, QWidget

from engine.frontend import PENDING_AIRPORT, PENDING_TZ

from .intent_fields import combo, plain

NOTE_STYLE = "color: #616161;"
# One line each (a word-wrapped label in the tab page is cut); the whole story in the tooltip.
NEW_CITY_NOTE = "New city: its places come from OpenStreetMap"
NEW_CITY_TIP = ("Not a built-in city: its places and airports are downloaded from OpenStreetMap when you "
                "plan it (once), then kept for offline use \u2014 see Settings.")
PENDING_ROW = "Found with the city's places when you plan"


@dataclass(frozen=True)
class KnownCity:
    """A city the form offers beside the fixtures: one whose OSM pack is cached."""

    name: str  # what the intent says: the catalog's name for it once joined ("Lisbon"; "Córdoba, ES")
    label: str  # "Lisbon, PT"
    airports: tuple[tuple[str, str], ...]  # (IATA, airport name), nearest first
    tz: str
    places: int = 0


def _folded(text: str) -> str:
    """For matching what is typed: case and accents set aside ("cord" ~ "Córdoba")."""
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def _key(text: str) -> str:
    return " ".join(text.replace(",", " ").casefold().split())


class IntentCity:
    _known: dict[str, KnownCity]  # by folded name and label, set by _city_field

    def _city_field(self) -> QWidget:
        """The editable city combo with its completer and the grey note under it."""
        self.city_combo = combo()
        self.city_combo.setEditable(True)
        self.city_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.city_combo.lineEdit().setPlaceholderText("any city, e.g. Lisbon or Córdoba, Spain")
        # Completion from the built-in and cached cities, and (once the app hands it a suggester)
        # from the gazetteer's places as they are typed: "lisb" offers "Lisbon, PT".
        self._city_words = QStringListModel(self.city_combo)
        self._suggest = None
        completer = QCompleter(self._city_words, self.city_combo)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        # the list is filtered here, accents folded ("cord" finds Córdoba), as the text is typed
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.city_combo.setCompleter(completer)
        self._known = {}
        self._fill_city_items()
        self.city_combo.setCurrentIndex(0)  # the first built-in city, as before any city was typed
        self.city_note = plain("")
        self.city_note.setObjectName("city_note")
        self.city_note.setStyleSheet(NOTE_STYLE)
        self.city_note.hide()
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.city_combo)
        column.addWidget(self.city_note)
        self.city_combo.currentTextChanged.connect(self._city_changed)
        self.city_combo.lineEdit().textEdited.connect(self._suggest_cities)
        return holder

    def set_city_suggester(self, suggest) -> None:
        """``suggest(prefix) -> [labels]`` (the gazetteer's ``complete``: a ~1 ms indexed read the
        app hands over once the index is open), asked as the traveller types a city."""
        self._suggest = suggest

    def _suggest_cities(self, text: str) -> None:
        wanted = _folded(text.strip())
        base = [w for w in self._base_words() if wanted in _folded(w)]
        labels = []
        if self._suggest is not None and len(wanted) >= 3:
            try:
                labels = self._suggest(text)
            except Exception:  # noqa: BLE001 — a completion that fails only means no suggestions
                labels = []
        words = list(dict.fromkeys([*base, *labels]))
        self._city_words.setStringList(words)
        completer = self.city_combo.completer()
        if words and wanted:
            completer.complete()
        else:
            completer.popup().hide()

    def _base_words(self) -> list[str]:
        return [self.city_combo.itemText(i) for i in range(self.city_combo.count())]

    def _fill_city_items(self) -> None:
        text = self.city_combo.currentText()
        self.city_combo.blockSignals(True)
        self.city_combo.clear()
        self.city_combo.addItems(self._catalog.city_names())
        for city in sorted(self._known_cities(), key=lambda c: c.name.casefold()):
            self.city_combo.addItem(city.name)
            self.city_combo.setItemData(self.city_combo.count() - 1, f"{city.label}: {city.places} places, "
                                        "kept for offline use", Qt.ItemDataRole.ToolTipRole)
        self._city_words.setStringList(self._base_words())
        index = self.city_combo.findText(text, Qt.MatchFlag.MatchFixedString)
        self.city_combo.setCurrentIndex(index)
        if index < 0:
            self.city_combo.setEditText(text)
        self.city_combo.blockSignals(False)

    def _known_cities(self) -> list[KnownCity]:
        return list(dict.fromkeys(self._known.values()))

    def set_known_cities(self, cities: list[KnownCity]) -> None:
        """The cached cities to offer (the app's listing of the pack cache); the typed text stays."""
        self._known = {}
        for city in cities:
            if self._catalog.has_city(city.name):
                continue  # a fixture city keeps its own airports
            for text in (city.label, city.name):
                self._known.setdefault(_key(text), city)
        self._fill_city_items()
        self._city_changed(self.city_combo.currentText())

    def known_city(self, text: str) -> KnownCity | None:
        return self._known.get(_key(text))

    # -- reactions ----------------------------------------------------------------------
    def _city_changed(self, name: str) -> None:
        self.airports_list.clear()
        note = tip = ""
        if self._catalog.has_city(name):
            city = self._catalog.city(name)
            rows = [(code, self._catalog.airport(code).name) for code in city.airports]
        elif (known := self.known_city(name)) is not None:
            rows = list(known.airports)
            note = ((f"{known.label} \u00b7 " if _key(known.label) != _key(known.name) else "") + "kept for offline use"
                    + (f" \u00b7 {known.places:,} places" if known.places else ""))
            tip = f"{known.label}: places from OpenStreetMap, kept on this computer (Settings lists them)."
        elif name.strip():
            rows = []
            note, tip = NEW_CITY_NOTE, NEW_CITY_TIP
            item = QListWidgetItem(PENDING_ROW)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.airports_list.addItem(item)
        else:
            rows = []
        for code, airport in rows:
            item = QListWidgetItem(f"{code} \u2014 {airport}")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.airports_list.addItem(item)
        self.city_note.setText(note)
        self.city_note.setToolTip(tip)
        self.city_note.setVisible(bool(note))
        count = max(self.airports_list.count(), 1)
        frame = 2 * self.airports_list.frameWidth()
        # Before the list is first shown its row hint can be 0 (or a bare text line, no check box).
        row = max(self.airports_list.sizeHintForRow(0), self.airports_list.fontMetrics().height() + 6)
        self.airports_list.setFixedHeight(row * count + frame + 2)

    # -- the intent's city ------------------------------------------------------------------
    def _city_target(self, errors: list[tuple[str, str]]) -> tuple[str, list[str], str] | None:
        """(city, ticked airports, zone) for the intent; placeholders for a city with no pack yet."""
        text = " ".join(self.city_combo.currentText().split())
        if not text:
            errors.append(("city", "choose a city or type any city's name"))
            return None
        ticked = [self.airports_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.airports_list.count())
                  if self.airports_list.item(i).checkState() == Qt.CheckState.Checked
                  and self.airports_list.item(i).data(Qt.ItemDataRole.UserRole)]
        if self._catalog.has_city(text):
            city = self._catalog.city(text)
            name, all_codes, tz = city.name, list(city.airports), city.tz
        elif (known := self.known_city(text)) is not None and known.airports:
            name, all_codes, tz = known.name, [code for code, _ in known.airports], known.tz
        else:
            return (known.name if known else text), [PENDING_AIRPORT], PENDING_TZ
        if not ticked:
            errors.append(("airports", "tick at least one airport to fly into"))
        return name, ticked or all_codes, tz
