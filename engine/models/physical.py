"""Physical ranges for what services measure (issue 25 §3): a value outside them is no weather or
road on Earth — a service fault, never shown. Used on the services' raw answers (so a fault is a
``ToolResponseError`` and the ladder's next rung answers) and on the values the plan keeps.

Bounds are generous beyond the records (−89.2 °C, 56.7 °C, a 408 km/h gust, 1,825 mm of rain
in a day) and refuse NaN and ±infinity."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MIN_C, MAX_C = -95.0, 65.0
MAX_WIND_KMH = 500.0
MAX_DAY_PRECIP_MM = 2000.0
MAX_ROUTE_MILES = 25_000.0  # once round the Earth
MAX_ROUTE_HOURS = 1_000.0

Celsius = Annotated[float, Field(ge=MIN_C, le=MAX_C, allow_inf_nan=False)]
WindKmh = Annotated[float, Field(ge=0.0, le=MAX_WIND_KMH, allow_inf_nan=False)]
WindMs = Annotated[float, Field(ge=0.0, le=MAX_WIND_KMH / 3.6, allow_inf_nan=False)]
Probability = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
Percent = Annotated[float, Field(ge=0.0, le=100.0, allow_inf_nan=False)]
PrecipMm = Annotated[float, Field(ge=0.0, le=MAX_DAY_PRECIP_MM, allow_inf_nan=False)]
Latitude = Annotated[float, Field(ge=-90.0, le=90.0, allow_inf_nan=False)]
Longitude = Annotated[float, Field(ge=-180.0, le=180.0, allow_inf_nan=False)]
RouteMiles = Annotated[float, Field(ge=0.0, le=MAX_ROUTE_MILES, allow_inf_nan=False)]
RouteHours = Annotated[float, Field(ge=0.0, le=MAX_ROUTE_HOURS, allow_inf_nan=False)]
