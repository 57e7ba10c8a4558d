"""Weather suitability (seed §6.4): rain ≥ 60% or wind ≥ 30 km/h makes outdoor slots blocking
and unknown-indoor slots an advisory."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Violation, ViolationKind, WeatherDay
from engine.schedule import plan_schedule

RAIN_PROB = 0.60
WIND_KMH = 30.0


def is_bad_weather(day: WeatherDay | None) -> bool:
    return day is not None and (day.precip_prob >= RAIN_PROB or day.wind_kmh >= WIND_KMH)


def verify_weather(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan_schedule(plan, facts):
        forecast = facts.weather.get(day.date)
        if not is_bad_weather(forecast):
            continue
        for choice in day.choices:
            if choice.kind is not ChoiceKind.attraction or choice.features.indoor is True:
                continue
            outdoor = choice.features.indoor is False
            out.append(Violation(kind=ViolationKind.weather_unsuitable, node_ref=choice.choice_id,
                                 blocking=outdoor, details={
                "reason": "outdoor_in_bad_weather" if outdoor else "uncertain_weather",
                "precip_prob": forecast.precip_prob, "wind_kmh": forecast.wind_kmh,
                "date": day.date.isoformat(),
                "message": f"{choice.label}: {forecast.precip_prob:.0%} rain, {forecast.wind_kmh:.0f} km/h wind"}))
    return out
