"""``tripwright eval`` prints TravelPlanner-style figures for the rule-based path and, with
``--llm``, for the model path (a local OpenAI-compatible server drafting every scenario)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from engine.evaluation.travelplanner import figures

from .scripted_server import ScriptedServer, first_choices

EXE = Path(sys.executable).with_name("tripwright")
SCENARIOS = Path(__file__).resolve().parents[2] / "eval" / "scenarios"
PICKED = [str(SCENARIOS / name) for name in ("rainy_saturday.yaml", "negative_budget.yaml")]
FIGURES = re.compile(r"TravelPlanner-style \((?P<path>[a-z-]+) path\): delivery (?P<delivery>[\d.]+)%; "
                     r"commonsense micro [\d.]+%, macro [\d.]+%; hard micro [\d.]+%, macro [\d.]+%; "
                     r"final pass (?P<final>[\d.]+)%")


def run_eval(*args: str, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")} | env_extra
    return subprocess.run([str(EXE), "eval", *args], capture_output=True, text=True, env=env, timeout=300)


def test_eval_reports_both_paths() -> None:
    rule = run_eval(*PICKED)
    found = FIGURES.search(rule.stdout)
    assert found and found["path"] == "rule-based", rule.stdout + rule.stderr
    with ScriptedServer(default=first_choices) as server:
        model = run_eval(*PICKED, "--llm", OPENAI_BASE_URL=server.base_url)
        asked = len(server.chat_requests())
    found = FIGURES.search(model.stdout)
    assert found and found["path"] == "model", model.stdout + model.stderr
    assert asked >= 1 and re.search(rf"Model: {asked} call\(s\), invalid-output rate 0.0%", model.stdout)


def test_the_figures_count_an_undelivered_plan_as_failing_every_check() -> None:
    all_pass = dict.fromkeys(("verify_timing", "verify_venue_hours", "verify_weather", "verify_lodging_windows",
                              "verify_last_train", "verify_budget", "verify_preferences"), True)
    over_budget = all_pass | {"verify_budget": False}
    values = figures([all_pass, over_budget, None, all_pass])
    assert values["delivery_rate"] == 0.75
    assert values["commonsense_macro"] == 0.75 and values["commonsense_micro"] == 15 / 20
    assert values["hard_micro"] == 5 / 8 and values["hard_macro"] == 0.5
    assert values["final_pass_rate"] == 0.5


def test_scenarios_the_model_could_not_draft_are_counted_as_rule_based() -> None:
    from .scripted_server import Reply, error_body
    with ScriptedServer(default=Reply(status=401, body=error_body(401, "bad key"))) as server:
        model = run_eval(*PICKED, "--llm", OPENAI_BASE_URL=server.base_url)
        asked = len(server.chat_requests())
    assert FIGURES.search(model.stdout)["path"] == "model"
    assert asked == len(PICKED)  # one request per scenario: a 401 is not retried
    assert "Model: 0 call(s), invalid-output rate 0.0%" in model.stdout
    assert f"; {len(PICKED)} scenario(s) planned rule-based (model unavailable)" in model.stdout
