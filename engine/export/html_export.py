"""A standalone HTML map of an itinerary (folium), readable offline: Leaflet is inlined from
the installed xstatic-leaflet package and no CDN asset is referenced.

Only Leaflet itself is needed: markers are circle markers and labels are tooltips (folium's
popups and icon markers would pull jQuery, Bootstrap and Font Awesome from CDNs).
"""

from __future__ import annotations

import html
from pathlib import Path

from engine.models import ChoiceKind, ItineraryV1

from ._trip import plain_text, trip_title

DAY_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")
KIND_RADIUS = {ChoiceKind.lodging: 9, ChoiceKind.flight: 8, ChoiceKind.attraction: 7, ChoiceKind.meal: 5}


def _leaflet_dir() -> Path:
    import xstatic.pkg.leaflet as leaflet
    return Path(leaflet.BASE_DIR)


def _offline_map_class():
    import folium

    class OfflineMap(folium.Map):
        default_js: list = []
        default_css: list = []

    return OfflineMap


def _label(text: str) -> str:
    return html.escape(plain_text(text), quote=True)


def itinerary_to_html(itin: ItineraryV1) -> str:
    import folium  # lazy: ~0.6 s to import (PLATFORM_NOTES)

    points = [(a.geo.lat, a.geo.lon) for d in itin.days for a in d.activities
              if a.geo is not None and a.kind is not ChoiceKind.flight]
    centre = points[0] if points else (0.0, 0.0)
    fmap = _offline_map_class()(location=centre, zoom_start=12, tiles=None, control_scale=True)
    # Street tiles when the reader is online; offline the vectors still draw on a plain background.
    folium.TileLayer("OpenStreetMap", name="OpenStreetMap (online)", control=False).add_to(fmap)
    for number, day in enumerate(itin.days, start=1):
        colour = DAY_COLOURS[(number - 1) % len(DAY_COLOURS)]
        swatch = f'<span style="color:{colour}">&#9632;</span> '
        group = folium.FeatureGroup(name=swatch + _label(f"Day {number} – {day.date:%a %d %b}"))
        stops = [a for a in day.activities if a.geo is not None and a.kind is not ChoiceKind.flight]
        if len(stops) > 1:
            folium.PolyLine([(a.geo.lat, a.geo.lon) for a in stops], color=colour, weight=3).add_to(group)
        for a in stops:
            tip = f"Day {number} {a.window.label()} · {a.name}" + (" (locked)" if a.locked else "")
            folium.CircleMarker((a.geo.lat, a.geo.lon), radius=KIND_RADIUS.get(a.kind, 6), color=colour,
                                fill=True, fill_opacity=0.85, tooltip=folium.Tooltip(_label(tip))).add_to(group)
        group.add_to(fmap)
    folium.LayerControl(collapsed=False).add_to(fmap)
    if len(points) > 1:
        fmap.fit_bounds([[min(p[0] for p in points), min(p[1] for p in points)],
                         [max(p[0] for p in points), max(p[1] for p in points)]])
    return _inline_leaflet(fmap.get_root().render(), trip_title(itin))


def _inline_leaflet(page: str, title: str) -> str:
    base = _leaflet_dir()
    js = (base / "leaflet.js").read_text(encoding="utf-8").replace("</script", "<\\/script")
    css = (base / "leaflet.css").read_text(encoding="utf-8")
    head = (f"<title>{_label(title)}</title>\n<style>{css}</style>\n<script>{js}</script>\n"
            "<style>html,body{height:100%;margin:0}.folium-map{background:#dfe6ea}</style>\n")
    return page.replace("<head>", "<head>\n" + head, 1)
