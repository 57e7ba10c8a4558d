"""Airports with scheduled long-haul passenger service: where a traveller from another continent lands.

OurAirports (the airports data of ``airports.py``) says whether an airport has scheduled service and
how big it is, not how far its flights go: Osaka Itami is a "large airport" named "Osaka
International Airport" and flies domestic routes only, while Kansai, 40 km away, takes the
long-haul flights. This list, compiled by hand for issue 31 §4 from the airports' published
destinations (the "Airlines and destinations" tables of each airport's Wikipedia article, 2025
schedules; written from those tables as known to the compiler, not re-fetched while writing it:
re-check a borderline entry before relying on it), names the airports with at least one
year-round scheduled passenger route of about 4,000 km or more (transatlantic, transpacific,
Europe–Asia, Europe–Africa south of the Sahara, the Gulf to far destinations). It is deliberately
conservative: an airport left out is only estimated as a connection for long-haul trips, never
refused. Seasonal-only and cargo-only routes do not count.
"""

from __future__ import annotations

LONG_HAUL_AIRPORTS: frozenset[str] = frozenset("""
ATL AUS BNA BOS CLT DEN DFW DTW EWR HNL IAD IAH JFK LAS LAX MCO MIA MSP ORD PDX PHL PHX RDU SAN SEA
SFO SLC TPA
YHZ YUL YVR YYC YYZ
CUN MEX PUJ
BOG EZE GIG GRU LIM MVD PTY SCL SJO UIO
AMS ARN ATH BCN BER BRU BUD CDG CPH DUB DUS EDI FCO FRA GVA HAM HEL IST KEF LGW LHR LIS MAD MAN
MUC MXP NCE ORY OSL OPO PRG VCE VIE WAW ZRH
ADD AMM AUH BAH CAI CMN CPT DOH DXB JED JNB KWI LOS MCT NBO RUH TLV ACC
BKK BLR BOM CAN CGK CMB DEL DPS HAN HKG HKT HND HYD ICN KIX KUL MAA MLE MNL NRT PEK PKX PVG SGN
SIN SZX TFU TPE
ADL AKL BNE CHC MEL NAN PER PPT SYD
""".split())
