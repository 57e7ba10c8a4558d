"""``tripwright`` command line (SPEC_DECISIONS §3). Exit codes: 0 ok, 1 verify found a blocking
violation (or eval below target), 2 invalid input, 3 no feasible plan after bounded repair.

Logs go to stderr (``-v`` INFO, ``-vv`` DEBUG, ``--log-json``), never to stdout, which holds the
command's own output; the options work before or after the command name.

`plan` (cites the signed-in org's notes with or without `--save` — `run_store.plan_unsaved`, or none with a
line on stderr when the database needs a sign-in nobody remembered; `--save [--trip|--name]` records the run
live and is idempotent, its request key including a digest of the org's notes so a new note is a new
version; a killed one blocks nothing once its process is gone; every command that opens the store fails
orphaned runs and says on stderr when a damaged database was restored; `--llm`: `llm_plan.py` — model
extraction (city and road prompts; `--route-file` followed as without `--llm`) and drafting, degradation to
the rule-based plan with one warning line, exit 3 with `reason: invalid_model_output`),
`ideas`/`chat`/`feedback`/`react` (`group_cmd.py`), `revise` (`revise_cmd.py`), `replan-now`
(`replan_now_cmd.py`: the latest version re-planned from now on around one change, saved as the next), `verify` (schema first,
strict: exit 2 naming the field; an exit-3 failure file: exit 1 "holds no plan"; then prints
`engine/verify_saved.py`'s findings), `export`, `trips list|show|delete`, `bookings import
FILE...|list|delete N --trip ID` and `places import FILE --trip ID` (`trip_inputs_cmd.py`: kept in the
trip's latest version's intent, no table of their own — `with_bookings`/`with_saved_places` add them, a
booking already held is not added twice, `delete N` takes the N-th as `list` numbers them, flights by
departure then the hotel; the trip is re-planned and saved as its next version through `plan_and_save`, the
request key naming the change and the version it starts from; a change that changes nothing plans nothing;
`list` masks codes; an unknown trip, a road trip, N out of range: one line, exit 2), `notes
import|list|delete|ask` (`notes_cmd.py`; `import -` reads pasted text from stdin, at most 8 MB),
`terminal.py` (other people's text on the terminal — `chat list`, `ideas list` — with control and bidi
characters shown as `\\x1b`/`\\u202e`; `ask` prints each answer's passage window — the whole chunk is in
`--json` — and a model change's re-embedding progress on stderr), `eval` (`engine/evaluation/`: the
scenarios share one tool executor — L1 and, when the data dir's store signs in without a prompt, the
`tool_cache` L2, `shared_tools.py` — as a user's runs do; prints the weather cache hit rate beside the
seed's figures), `bench`; global `-v`/`-vv`/`--log-json`; errors become one line on stderr and an exit code;
`paths.py` is the one place argument paths are checked (inputs read with a size cap, UTF-8 and nesting
errors named; outputs refused before planning when empty, a folder, a device, in a missing or unwritable
folder — found by writing a probe file, since mode bits do not stop root — or equal to an input or another
output) and `Outputs.write` writes them as one set; a closed stdout (`| head -1`) is sent to /dev/null so
the command ends with its own exit code
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .errors import cli_errors, quiet_broken_pipe

EXIT_OK, EXIT_BLOCKING, EXIT_INPUT, EXIT_INFEASIBLE = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        print(f"tripwright: {message}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def _log_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """On the main parser with defaults, and on each command without (``SUPPRESS``), so the
    command's own parse keeps what was given before the command name."""
    unset = argparse.SUPPRESS
    parser.add_argument("-v", "--verbose", action="count", default=0 if top else unset,
                        help="log more to stderr: -v info, -vv debug (default: warnings only)")
    parser.add_argument("--log-json", action="store_true", default=False if top else unset,
                        help="log as JSON lines instead of key=value")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tripwright", description="Plan trips and prove they are feasible.")
    _log_options(parser, top=True)
    common = argparse.ArgumentParser(add_help=False)
    _log_options(common, top=False)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=summary, parents=[common])

    plan = command("plan", "plan a trip from an intent file or a prompt")
    src = plan.add_mutually_exclusive_group(required=True)
    src.add_argument("--intent", help="IntentV1 JSON file")
    src.add_argument("--prompt", help='free text, e.g. "5 days in Paris from 2027-06-15, flying from JFK"')
    plan.add_argument("--from", dest="home_airport", help="home airport when the prompt does not say")
    plan.add_argument("--out", help="write the itinerary JSON here")
    plan.add_argument("--gpx", help="write GPX 1.1 here")
    plan.add_argument("--ics", help="write iCalendar here")
    plan.add_argument("--events", help="write the StreamEvents as JSON lines here")
    plan.add_argument("--today", help="planning date (YYYY-MM-DD) for FX as-of; default today")
    plan.add_argument("--report", action="store_true", help="print the road-trip validation report")
    plan.add_argument("--route-file", help="road trips: a GPX or KML track to follow (instead of a named route)")
    plan.add_argument("--bookings", nargs="+", metavar="FILE",
                      help="your confirmations to plan around (.eml/.html with schema.org markup, .ics, or "
                           ".pdf/.txt read by the configured model): a city trip's flights and hotel, a road "
                           "trip's motel (that night's stop)")
    plan.add_argument("--places", help="city trips: your saved places to see (My Maps KML/KMZ, Takeout GeoJSON, "
                                       "GPX waypoints or CSV name,lat,lon)")
    plan.add_argument("--save", action="store_true", help="store the result as a new version of a trip")
    plan.add_argument("--trip", help="with --save: the trip to add a version to (default: a new trip)")
    plan.add_argument("--name", help="with --save: the new trip's name")
    plan.add_argument("--llm", action="store_true",
                      help="let the configured OpenAI-compatible model read the prompt and propose choices")
    verify = command("verify", "re-verify a saved itinerary")
    verify.add_argument("itinerary", help="an itinerary JSON written by plan --out (or export --json)")
    export = command("export", "export a saved itinerary")
    export.add_argument("itinerary", help="an itinerary JSON written by plan --out")
    from engine.export.formats import FORMATS  # the one table of export formats (light: no pydantic)
    for fmt in FORMATS:
        export.add_argument(f"--{fmt.key}", dest=f"{fmt.key}_out", metavar="FILE", help=fmt.cli_help)
    export.add_argument("--gpx-per-day", action="store_true",
                        help="with --gpx: also one GPX file per day next to it (FILE-day-01-DATE.gpx)")
    export.add_argument("--ics-transfers", action="store_true",
                        help="with --ics: also the transfers shorter than 30 minutes as events (left out by default)")
    trips = command("trips", "list, show or delete stored trips")
    trips.add_argument("action", choices=["list", "show", "delete"], help="what to do")
    trips.add_argument("trip_id", nargs="?", help="show/delete: the trip's id (see trips list)")
    ideas = command("ideas", "add or list a trip's ideas")
    ideas.add_argument("action", choices=["add", "list"], help="what to do")
    ideas.add_argument("trip_id", help="the trip's id (see trips list)")
    ideas.add_argument("--title", help="add: the idea, e.g. \"Sunset at Montmartre\"")
    ideas.add_argument("--priority", type=int, default=3, help="1 (highest) to 5; default 3")
    chat = command("chat", "post to, import into or list a trip's planning chat")
    chat.add_argument("action", choices=["post", "import", "list"], help="what to do")
    chat.add_argument("trip_id", help="the trip's id (see trips list)")
    chat.add_argument("text", nargs="?", help="post: the message; import: a WhatsApp .txt or Telegram JSON export")
    feedback = command("feedback", "add or list feedback on a version")
    feedback.add_argument("action", choices=["add", "list"], help="what to do")
    feedback.add_argument("trip_id", help="the trip's id (see trips list)")
    feedback.add_argument("--text", help="add: what worked and what did not")
    feedback.add_argument("--rating", type=int, help="add: 1 (poor) to 5 (great)")
    feedback.add_argument("--version", type=int, help="default: the latest version")
    react = command("react", "react to a version with an emoji")
    react.add_argument("trip_id", help="the trip's id (see trips list)")
    react.add_argument("emoji", help="one emoji, e.g. 👍")
    react.add_argument("--version", type=int, help="default: the latest version")
    revise = command("revise", "let the model revise the latest version from feedback and reactions")
    revise.add_argument("trip_id", help="the trip's id (see trips list)")
    revise.add_argument("--out", help="write the new version's itinerary JSON here")
    revise.add_argument("--today", help="planning date (YYYY-MM-DD); default today")
    from .notes_cmd import add_notes_parser
    add_notes_parser(command)
    from .cities_cmd import add_cities_parser
    add_cities_parser(command)
    from .trip_inputs_cmd import add_trip_inputs_parsers
    add_trip_inputs_parsers(command)
    from .today_cmd import add_today_parser
    add_today_parser(command)
    now = command("replan-now", "something changed: re-plan a trip under way from now on")  # replan_now_cmd.py
    now.add_argument("trip_id", help="the trip's id (see trips list)")
    now.add_argument("--now", required=True, help="the moment to re-plan from, ISO 8601 (e.g. 2027-06-16T11:00; "
                                                  "without an offset: the trip's own clock)")
    change = now.add_mutually_exclusive_group(required=True)
    change.add_argument("--late", metavar="MINUTES", help="the next flight arrives this many minutes late (a road trip: the day leaves this late)")
    change.add_argument("--closed", metavar="PLACE", help="this place is closed today (from now); on a road trip, a sight on the way or tonight's town")
    change.add_argument("--rain-from", metavar="HH:MM", help="rain from this time today: outdoor visits after it move")
    change.add_argument("--done-for-today", action="store_true", help="end the day now")
    change.add_argument("--skip", metavar="PLACE", help="skip this place")
    change.add_argument("--at", metavar="LAT,LON", help="we are here: start from this point")
    change.add_argument("--bookings", metavar="FILE", help="a booking made mid-trip (.eml/.html/.ics): an event, or a new flight home")
    now.add_argument("--out", help="write the new version's itinerary JSON here")
    maps = command("maps", "download a trip's area (or a box) as an offline map")  # runs in maps_cmd.py
    maps.add_argument("action", choices=["download"], help="what to do")
    maps.add_argument("trip_id", nargs="?", help="the stored trip whose area to download (see trips list)")
    maps.add_argument("--bbox", help="instead of a trip: the box south,west,north,east in degrees")
    maps.add_argument("--out", help="the .pmtiles file to write (default, for a trip: where the app looks)")
    maps.add_argument("--url", help="the remote .pmtiles archive (default: the Settings' offline map source)")
    diag = command("diagnostics", "metrics, breaker states and cache hit rates of the last plan")
    diag.add_argument("--json", action="store_true", help="the report as JSON")
    diag.add_argument("--prometheus", action="store_true", help="the metrics in Prometheus text format")
    diag.add_argument("--bundle", help="write a .zip with the report, metrics, versions and redacted logs")
    ev = command("eval", "run the YAML scenario suite")
    ev.add_argument("paths", nargs="*", help="scenario YAML files or folders (default: the shipped suite)")
    ev.add_argument("--llm", action="store_true", help="also draft with the configured model (TravelPlanner figures)")
    bench = command("bench", "print the performance figures")
    bench.add_argument("--json", action="store_true", help="the figures as JSON, for machines")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")
    shot = command("screenshot", "render the main window offscreen with a demo trip to a PNG")
    shot.add_argument("--out", required=True, help="PNG file to write")
    shot.add_argument("--trip", choices=("city", "road", "none"), default="city", help="which demo trip to show")
    shot.add_argument("--size", help="window size, e.g. 1400x900")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from engine.log_setup import configure, default_log_dir
    configure(args.verbose, json=args.log_json, log_dir=default_log_dir())
    with quiet_broken_pipe(), cli_errors() as outcome:
        outcome.code = _dispatch(args)
    return outcome.code


# Each subcommand's runner, imported only when that subcommand runs (so `--help` and a plan load
# only what they use): "module:function" inside engine.cli, the function taking the parsed args.
# A new subcommand: its arguments in build_parser, its line here, its engine/cli/*_cmd.py.
COMMANDS = {
    "plan": "plan_cmd:run_plan", "verify": "verify_cmd:run_verify", "export": "verify_cmd:run_export",
    "trips": "trips_cmd:run_trips", "notes": "notes_cmd:run_notes", "cities": "cities_cmd:run_cities",
    "maps": "maps_cmd:run_maps", "today": "today_cmd:run_today",
    "bookings": "trip_inputs_cmd:run_bookings", "places": "trip_inputs_cmd:run_places",
    "diagnostics": "diagnostics_cmd:run_diagnostics", "ideas": "group_cmd:run_ideas", "chat": "group_cmd:run_chat",
    "feedback": "group_cmd:run_feedback", "react": "group_cmd:run_react", "revise": "revise_cmd:run_revise",
    "replan-now": "replan_now_cmd:run_replan_now", "eval": "eval_cmd:run_eval", "bench": "bench_cmd:run_bench", "screenshot": "screenshot_cmd:run_screenshot",
}
# Scenarios and figures must be reproducible: fixtures and pinned facts only, unless the caller
# explicitly sets TRIPWRIGHT_OFFLINE=0 to measure against real services.
PINNED_OFFLINE = ("eval", "bench")


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in PINNED_OFFLINE:
        os.environ.setdefault("TRIPWRIGHT_OFFLINE", "1")
    module, function = COMMANDS[args.command].split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)(args)
