"""Tool adapters (one protocol each) and the executor policy wrapped around them.

one protocol per tool, the `Toolbox` typed to them; fixture adapters (flights, lodging, attractions, dining,
transit — through the executor like every tool, its last rung `omitted_leg` —, FX — `fx_or_one`: 1.0 with an
`omitted` provenance when it fails —, weather climatology) and the real **Open-Meteo** adapter
(`open_meteo.py`: daily forecast inside 16 days, historical archive for "typical weather" elsewhere; httpx +
pydantic on the documented JSON) and **OpenWeatherMap One Call 3.0** (`openweathermap.py`: with a key from
`OPENWEATHERMAP_API_KEY` or the keyring entry `openweathermap-api-key`, base
`TRIPWRIGHT_OPENWEATHERMAP_URL`; daily forecast for today + 7 days; own breaker, tool `openweathermap`; the
key only in the `appid` parameter). `weather.py` is the weather ladder (OpenWeatherMap → Open-Meteo forecast
→ cache → fixture → omitted; `data_source` per day; `degraded_tools`; `DISABLE_WEATHER_API`;
`weather_credit` is the attribution shown with each real answer; the fixture rung asks per day for the
month's climatology plus the day's pinned values, all its answer depends on). `executor.py` is the seed's
strict policy for every call: cache key sha256 of tool + the adapter's `cache_variant` (what else changes
its answer: pinned FX, the rates prices are converted with, the service's base URL — never a key;
`cache_variant.py`) + canonical request, L1 in memory + durable L2 (`durable_cache.py` over the store's
`tool_cache`) for typed real answers, TTLs weather/FX 24 h else forever, in-flight de-dup, 2 s soft / 4 s
hard timeout, exactly one retry after 200–500 ms jitter on timeout/unavailable (Retry-After honoured when it
fits), never on a bad answer; `breaker.py` (5 failures/60 s, one half-open probe every 30 s); clock, sleep
and jitter injectable; `SIMULATE_TOOL_TIMEOUT` (a synchronous adapter — FX, transit — past the hard timeout
fails as the policy would, without the wait); `call_uncached` (the same policy without cache or sharing,
caller's timeouts: the model client) and `quiet_tools` (tools whose callers word their own failure: logged
at INFO). `engine/net/bounded_http.py` (issue 25): one transport wrapper for httpx, httpx2 (the openai SDK's) and
httpx's sync client (geopy's Nominatim adapter, `geocode/bounded_adapter.py`) — the body decoded by us
(identity/gzip/deflate, other codings refused) with a decompressed-size cap per request (10 MB; Overpass 48
MB; Nominatim 2 MB) and a total-time cap, redirects to another origin refused; a refusal is a tool error, so
the ladder's next rung answers. `engine/models/physical.py`: the physical ranges (°C, wind, probability,
rain, route miles/hours; no NaN/inf) every weather and routing answer and `WeatherDay` are validated
against. `engine/net/network.py`: `TRIPWRIGHT_OFFLINE` (no attempt), a dead network marked offline for 2 min after the
first connection failure, one `httpx.AsyncClient` per event loop with an identifying User-Agent, HTTP →
`ToolTimeout`/`ToolUnavailable`/`ToolResponseError`; `osrm.py`: real driving routes from an OSRM-compatible
service (`TRIPWRIGHT_ROUTING_URL`, `{base}/route/v1/driving/{lon,lat;…}?overview=full&geometries=geojson`;
httpx through `NetworkState.get`; `NoRoute`/`NoSegment` are answers, 5xx outages, anything else a
`ToolResponseError`; requests rounded to 4 decimals = the cache key, kept forever)
"""

from .toolbox import ToolOverrides, Toolbox, build_toolbox

__all__ = ["ToolOverrides", "Toolbox", "build_toolbox"]
