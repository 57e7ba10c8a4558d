"""The folium pieces of the HTML export; imported only when a page is built (folium takes ~0.6 s)."""

from __future__ import annotations

import folium
from branca.element import Element


class OfflineMap(folium.Map):
    """folium.Map without its CDN assets: the export inlines Leaflet itself."""

    default_js: list = []
    default_css: list = []


class RawText(Element):
    """Text put in the page as is. branca's own Element treats its text as a Jinja template,
    which would evaluate ``{{ ... }}`` inside data."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def render(self, **kwargs) -> str:
        return self.text
