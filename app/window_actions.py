"""The main window's actions, menus and toolbar, with their keyboard shortcuts.

File: New trip (Ctrl+N), Open example ▸, Export ▸ (Ctrl+E: any format), Import route…, Import places…,
Import bookings…, Sign in…, Sign out, Quit (Ctrl+Q). Edit: Undo (Ctrl+Z), Redo (Ctrl+Shift+Z), Settings…
(Ctrl+,). Plan: Plan (Ctrl+R), Re-plan (Ctrl+Shift+R / F5), Cancel (Esc). Trip: Make this trip
available offline…, Remove this trip's offline copy. View: the docks, Street map (online).
Help: Quick guide (F1), Keyboard shortcuts, About.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QStyle, QToolBar

from engine.export.formats import FORMATS

from .welcome import examples


@dataclass
class WindowActions:
    new_trip: QAction
    quit: QAction
    undo: QAction
    redo: QAction
    plan: QAction
    replan: QAction
    cancel: QAction
    export_any: QAction
    online: QAction
    about: QAction
    guide: QAction
    shortcuts: QAction
    settings: QAction
    sign_in: QAction
    sign_out: QAction
    import_route: QAction
    import_places: QAction
    import_bookings: QAction
    examples: dict[str, QAction] = field(default_factory=dict)
    exports: dict[str, QAction] = field(default_factory=dict)

    def edit_actions(self) -> list[QAction]:
        """Actions that need a planned trip."""
        return [self.replan, self.export_any, *self.exports.values()]


def _action(window: QMainWindow, text: str, shortcuts=(), *, icon=None, tip: str = "",
            checkable: bool = False) -> QAction:
    action = QAction(text, window)
    if shortcuts:
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    if icon is not None:
        action.setIcon(window.style().standardIcon(icon))
    if tip:
        action.setToolTip(tip)
        action.setStatusTip(tip)
    action.setCheckable(checkable)
    window.addAction(action)  # shortcuts work even when the menu bar is hidden
    return action


def build_actions(window: QMainWindow, today) -> WindowActions:
    P = QStyle.StandardPixmap
    actions = WindowActions(
        new_trip=_action(window, "&New trip", [QKeySequence.StandardKey.New], icon=P.SP_FileIcon,
                         tip="Start a new trip (the welcome page)"),
        quit=_action(window, "&Quit", [QKeySequence.StandardKey.Quit]),
        undo=_action(window, "&Undo", ["Ctrl+Z"], icon=P.SP_ArrowBack, tip="Go back to the previous version"),
        redo=_action(window, "&Redo", ["Ctrl+Shift+Z", "Ctrl+Y"], icon=P.SP_ArrowForward,
                     tip="Go forward to the next version"),
        plan=_action(window, "&Plan", ["Ctrl+R"], icon=P.SP_MediaPlay, tip="Plan the trip in the form (Ctrl+R)"),
        replan=_action(window, "&Re-plan", ["Ctrl+Shift+R", "F5"], icon=P.SP_BrowserReload,
                       tip="Plan the open trip again, keeping its edits"),
        cancel=_action(window, "&Cancel", ["Esc"], icon=P.SP_BrowserStop, tip="Stop the planning run (Esc)"),
        export_any=_action(window, "&Export\u2026", ["Ctrl+E"], icon=P.SP_DialogSaveButton,
                           tip="Export the trip: JSON, GPX, iCalendar, KML, HTML map or PDF (Ctrl+E)"),
        online=_action(window, "&Street map (online)",
                       tip="Show the OpenStreetMap street map under the trip when online; off: the built-in map only",
                       checkable=True),
        about=_action(window, "&About Tripwright"),
        guide=_action(window, "Quick &guide", ["F1"], icon=P.SP_DialogHelpButton,
                      tip="How to plan, read, change and share a trip, in a few lines (F1)"),
        shortcuts=_action(window, "&Keyboard shortcuts", tip="Every shortcut of the window"),
        settings=_action(window, "&Settings\u2026", ["Ctrl+,"],
                         tip="Home airport, distance units, map tiles, language model and API key"),
        sign_in=_action(window, "Sign &in\u2026", tip="Sign in to see and save your org's trips"),
        sign_out=_action(window, "Sign &out", tip="Sign out and forget this computer's remembered login"),
        import_route=_action(window, "Import &route\u2026",
                             tip="Follow a GPX or KML track on the open road trip (its ends and days stay)"),
        import_places=_action(window, "Import &places\u2026",
                              tip="Your saved places (My Maps KML/KMZ, Takeout GeoJSON, GPX, CSV) as must-sees of "
                                  "the open city trip; or drop the file on the window"),
        import_bookings=_action(window, "Import &bookings\u2026",
                                tip="Your flight and hotel confirmations (e-mail, web page, calendar file, PDF, "
                                    "text) planned around on the open city trip; or drop the file on the window"),
    )
    actions.sign_in.setEnabled(False)
    actions.sign_out.setEnabled(False)
    for key, example in examples(today).items():
        actions.examples[key] = _action(window, example.title.replace("&", "&&"), tip=example.prompt)
    for kind in FORMATS:
        actions.exports[kind.key] = _action(window, kind.label)
    actions.cancel.setEnabled(False)
    return actions


def shortcut_list(window: QMainWindow) -> list[tuple[str, str]]:
    """(what, keys) for every action of the window that has a shortcut, in menu words: the Help
    list is made from the actions themselves, so it never disagrees with them."""
    rows = []
    for action in window.actions():
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()
                if not k.isEmpty()]
        if keys:
            rows.append((action.text().replace("&&", "\0").replace("&", "").replace("\0", "&"), " or ".join(keys)))
    return rows


def build_menus(window: QMainWindow, actions: WindowActions, docks) -> QToolBar:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(actions.new_trip)
    examples_menu = file_menu.addMenu("Open &example")
    for action in actions.examples.values():
        examples_menu.addAction(action)
    export_menu = file_menu.addMenu("E&xport")
    export_menu.addAction(actions.export_any)
    export_menu.addSeparator()
    for action in actions.exports.values():
        export_menu.addAction(action)
    file_menu.addAction(actions.import_route)
    file_menu.addAction(actions.import_places)
    file_menu.addAction(actions.import_bookings)
    file_menu.addSeparator()
    file_menu.addAction(actions.sign_in)
    file_menu.addAction(actions.sign_out)
    file_menu.addSeparator()
    file_menu.addAction(actions.quit)
    edit_menu = bar.addMenu("&Edit")
    edit_menu.addAction(actions.undo)
    edit_menu.addAction(actions.redo)
    edit_menu.addSeparator()
    edit_menu.addAction(actions.settings)
    plan_menu = bar.addMenu("&Plan")
    for action in (actions.plan, actions.replan, actions.cancel):
        plan_menu.addAction(action)
    changed = getattr(window, "something_changed", None)
    if changed is not None:  # Plan ▸ Something changed… (app/something_changed_flow.py)
        plan_menu.addAction(changed.action)
    trip_menu = bar.addMenu("&Trip")
    offline = getattr(window, "offline_copy", None)
    if offline is not None:
        trip_menu.addAction(offline.action)
        trip_menu.addAction(offline.remove_action)
        trip_menu.aboutToShow.connect(offline.refresh)  # the network's state as the menu opens
    view_menu = bar.addMenu("&View")
    for dock in docks:
        view_menu.addAction(dock.toggleViewAction())
    view_menu.addSeparator()
    view_menu.addAction(actions.online)
    help_menu = bar.addMenu("&Help")
    help_menu.addAction(actions.guide)
    help_menu.addAction(actions.shortcuts)
    help_menu.addSeparator()
    help_menu.addAction(actions.about)
    actions.guide.triggered.connect(lambda: window.show_help("guide"))
    actions.shortcuts.triggered.connect(lambda: window.show_help("shortcuts"))

    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("main_toolbar")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for action in (actions.new_trip, actions.plan, actions.replan, actions.cancel):
        toolbar.addAction(action)
    toolbar.addSeparator()
    toolbar.addAction(actions.undo)
    toolbar.addAction(actions.redo)
    toolbar.addSeparator()
    toolbar.addAction(actions.export_any)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    return toolbar
