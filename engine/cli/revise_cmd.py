"""``tripwright revise TRIP_ID [--out FILE]``: a new version from the latest one's feedback,
reactions, new ideas and chat delta (seed 001 v2+). Exit 2 with the reason when there is nothing
to revise from, the LLM-version cap is reached, or the model cannot be asked; exit 3 when the
model's answer is invalid twice."""

from __future__ import annotations

import sys

from engine.errors import InputError, ModelUnavailable
from engine.llm.revision import revision_material

from .run_store import org_scope, plan_and_save


def run_revise(args) -> int:
    from engine.catalog import default_catalog
    from engine.frontend import check_not_past, planning_date
    from engine.llm.prompt_reading import configured_client
    from engine.llm.revision import Reviser
    from engine.pipeline import PlanningSession

    from .paths import Outputs
    from .plan_report import report_plan
    outputs = Outputs.check({"--out": args.out}, inputs={})
    with org_scope() as repo:
        intent, material = revision_material(repo, args.trip_id)
    session = PlanningSession(default_catalog(), today=planning_date(args.today))
    check_not_past(intent, session.today)  # a revision is planned ahead too (--today says otherwise)
    try:
        client = configured_client(executor=session.toolbox.executor)  # breaker and stats beside the tools'
    except ModelUnavailable as exc:
        raise InputError("model", f"revise needs the model: {exc.reason}") from None
    reviser = Reviser(client, material)
    result = plan_and_save(session, intent, trip_id=args.trip_id, name=None, drafter=reviser,
                           meta_of=lambda _r: {**reviser.meta, **client.meter.summary()} if reviser.meta else None,
                           request_key=f";revise-from=v{material.version};fb={len(material.feedback)};"
                                       f"rx={sum(material.reactions.values())}")
    if result.status != "completed" and result.failure is not None and result.failure.reason:
        outputs.write({"--out": lambda: result.failure.model_dump_json(indent=2)})
        print(f"tripwright: {result.failure.reason}: {result.failure.message}", file=sys.stderr)
        return 3
    meta = {**reviser.meta, **client.meter.summary()} if reviser.meta else None
    args.gpx = args.ics = args.events = None
    return report_plan(args, outputs, result, llm_meta=meta)
