"""The model steps before the pipeline as nodes of the run's stream: ``plan --llm --prompt`` puts an
``extract`` node (tokens, cost, or the fallback's reason) in ``--events``; road-trip prompts are read
by the model too, the road parser when it cannot; ``--route-file`` still makes the corridor. The real
``tripwright`` executable against the scripted local OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

from .scripted_server import Reply, ScriptedServer, error_body, first_choices, request_schema
from .test_plan_llm_cli import TODAY, extraction, tw
from .test_road_drafting import evenly
from ..test_route_file import TRACK, _gpx

CITY_PROMPT = "5 days in Paris from 2027-06-15 for 2, flying from JFK, budget $4000, art"


def run(server: ScriptedServer, tmp_path: Path, *args: str):
    out, events = tmp_path / "out.json", tmp_path / "events.jsonl"
    done = tw(server.base_url, "plan", "--llm", *args, "--out", str(out), "--events", str(events), "--today", TODAY)
    rows = [json.loads(line) for line in events.read_text().splitlines()] if events.exists() else []
    return done, out, rows


def node_rows(rows: list[dict], node: str) -> list[dict]:
    return [e for e in rows if e["node"] == node]


def test_the_extract_node_opens_the_stream_with_its_tokens_and_cost(tmp_path) -> None:
    with ScriptedServer([extraction("Paris"), first_choices]) as server:
        done, out, rows = run(server, tmp_path, "--prompt", CITY_PROMPT)
    assert done.returncode == 0, done.stderr
    started, completed = node_rows(rows, "extract")
    assert (started["seq"], started["status"], completed["status"]) == (0, "started", "completed")
    assert completed["model_usage"] == {"model": "gpt-4o-mini", "prompt_tokens": 1200, "completion_tokens": 300,
                                        "cost_usd": 0.00036}
    assert "1200+300 tokens" in completed["decision_note"]
    assert rows[2]["node"] == "intent_extractor" and len({e["run_id"] for e in rows}) == 1
    assert json.loads(out.read_text())["llm_meta"]["intentExtracted"] is True


def test_a_garbage_extraction_answer_is_noted_and_re_asked(tmp_path) -> None:
    with ScriptedServer([Reply(content="Sure! Paris sounds lovely."), extraction("Paris"), first_choices]) as server:
        done, out, rows = run(server, tmp_path, "--prompt", CITY_PROMPT)
    assert done.returncode == 0, done.stderr
    statuses = [(e["status"], e["decision_note"]) for e in node_rows(rows, "extract")]
    assert [s for s, _ in statuses] == ["started", "running", "completed"]
    assert "answer rejected" in statuses[1][1] and "not JSON" in statuses[1][1]
    assert node_rows(rows, "extract")[-1]["model_usage"]["prompt_tokens"] == 2400  # both calls count
    assert json.loads(out.read_text())["intent"]["travellers"] == 2


def test_an_unusable_model_falls_back_to_the_parser_with_a_note(tmp_path) -> None:
    with ScriptedServer(default=Reply(status=401, body=error_body(401, "nope"))) as server:
        done, out, rows = run(server, tmp_path, "--prompt", CITY_PROMPT)
    assert done.returncode == 0, done.stderr
    [_, fell_back] = node_rows(rows, "extract")
    assert fell_back["status"] == "completed" and fell_back["model_usage"] is None
    assert fell_back["decision_note"].startswith("model unavailable (HTTP 401 unauthorized")
    assert fell_back["decision_note"].endswith("; rule-based parser")
    assert json.loads(out.read_text())["intent"]["city"] == "Paris"  # the rule-based parser read it


ROAD_PROMPT = "Road trip from the City of Angels to the Windy City on the Mother Road, a week from 2027-05-03"


def road_answer(request: dict) -> Reply:
    schema = request_schema(request)
    assert "Route 66" in schema["properties"]["route"]["anyOf"][0]["enum"]  # routes are an enum
    return Reply(content=json.dumps({
        "origin": "Los Angeles, CA", "terminus": "Chicago, IL", "days": 7, "start_date": "2027-05-03",
        "trip_type": "one_way", "route": "Route 66", "stops": [], "max_daily_miles": None, "travellers": 3,
        "themes": [], "kid_friendly": False}))


def test_a_road_prompt_is_read_by_the_model(tmp_path) -> None:
    with ScriptedServer([road_answer, evenly]) as server:
        done, out, rows = run(server, tmp_path, "--prompt", ROAD_PROMPT)
        asked = server.chat_requests()[0]
    assert done.returncode == 0, done.stderr
    assert asked["messages"][1]["content"] == ROAD_PROMPT and "road trip" in asked["messages"][0]["content"]
    intent = json.loads(out.read_text())["intent"]
    assert (intent["mode"], intent["route"], intent["days"], intent["travellers"]) == ("road_trip", "Route 66", 7, 3)
    assert intent["origin"].startswith("Los Angeles") and intent["terminus"].startswith("Chicago")
    assert node_rows(rows, "extract")[-1]["model_usage"]["completion_tokens"] == 300


def test_a_road_reading_that_is_not_a_trip_falls_back_to_the_road_parser(tmp_path) -> None:
    no_days = {"origin": "Denver", "terminus": "Kansas City", "days": None, "start_date": None, "trip_type": "one_way",
               "route": None, "stops": [], "max_daily_miles": None, "travellers": None, "themes": [],
               "kid_friendly": False}
    with ScriptedServer([Reply(content=json.dumps(no_days)), evenly]) as server:
        done, out, rows = run(server, tmp_path, "--prompt", "Denver to Kansas City, 3 days from 2027-05-03")
    assert done.returncode == 0, done.stderr
    note = node_rows(rows, "extract")[-1]["decision_note"]
    assert note.startswith("the model's reading is not usable (days:") and note.endswith("; rule-based parser")
    intent = json.loads(out.read_text())["intent"]
    assert (intent["days"], intent["start_date"]) == (3, "2027-05-03")


def test_llm_with_a_route_file_follows_the_track(tmp_path) -> None:
    track = _gpx(tmp_path / "i70.gpx", TRACK)
    answer = {"origin": "Denver, CO", "terminus": "Salt Lake City, UT", "days": 3, "start_date": "2027-05-03",
              "trip_type": "one_way", "route": None, "stops": [], "max_daily_miles": None, "travellers": None,
              "themes": [], "kid_friendly": False}
    with ScriptedServer([Reply(content=json.dumps(answer)), evenly]) as server:
        done, out, rows = run(server, tmp_path, "--prompt", "Denver to Salt Lake City, 3 days from 2027-05-03",
                              "--route-file", str(track))
    assert done.returncode == 0, done.stderr
    intent = json.loads(out.read_text())["intent"]
    assert intent["route_track_name"] == "i70" and len(intent["route_track"]) == len(TRACK)
    assert node_rows(rows, "extract")[-1]["status"] == "completed"
