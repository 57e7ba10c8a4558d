"""The HTTP plumbing every online part shares (tool adapters, geocoding, city packs, notes, the model
client, offline maps): `bounded_http.py` reads every reply within bounds (size, time, origin) for
httpx, the openai SDK's httpx2 and httpx's sync client; `network.py` decides whether to go online at all
(`TRIPWRIGHT_OFFLINE`, a dead network remembered for a while), keeps one client per event loop with an
identifying User-Agent, and words HTTP answers and failures as tool errors. It imports nothing of the
engine but `engine.errors`, so any package may use it.
"""
