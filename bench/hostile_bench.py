"""Hostile files and service replies (issue 25): each case run in a child process, its wall time
and peak RSS printed — the bounds are ≤ 10 s and ≤ 300 MB for an import of a file under its cap.

    .venv/bin/python bench/hostile_bench.py [--json]

- ``route_gpx_19mb`` / ``route_kml_15mb``: ``read_route_file`` on a 400,000-point GPX track and a
  650,000-point KML line (jittered), thinned to ≤ 2,000 points;
- ``route_zigzag_200k``: the 200,000-point zig-zag KML that crashed shapely (SIGSEGV);
- ``chat_whatsapp_20mb`` / ``chat_telegram_20mb``: ``read_export`` of 20 MB chat exports;
- ``note_text_20mb``: a 20 MB text note read and its PII pass (phones and e-mails in every line;
  chunking and embedding excluded);
- ``pii_5mb_word`` / ``pii_5mb_at`` / ``pii_5mb_digits``: the PII pass on 5 MB of one word, of
  ``a@`` and of digit runs;
- ``weather_gzip_bomb_200mb``: a 200 MB (decompressed) gzip reply from a local Open-Meteo stand-in,
  refused at the 10 MB cap.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SETUP = {
    "route_gpx_19mb": """
import random
r = random.Random(1)
pts = [(39.7 + k * 1e-6 + r.random() * 1e-3, -105.0 + k * 1e-5) for k in range(400_000)]
body = "".join(f'<trkpt lat="{a:.6f}" lon="{b:.6f}"></trkpt>' for a, b in pts)
open(PATH + ".gpx", "w").write('<?xml version="1.0"?><gpx version="1.1" creator="b" '
    'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' + body + "</trkseg></trk></gpx>")
""",
    "route_kml_15mb": """
import random
r = random.Random(1)
coords = " ".join(f"{-105.0 + k * 1e-5:.6f},{39.7 + k * 1e-6 + r.random() * 1e-3:.6f},0" for k in range(650_000))
open(PATH + ".kml", "w").write('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
    f"<Placemark><LineString><coordinates>{coords}</coordinates></LineString></Placemark></Document></kml>")
""",
    "weather_gzip_bomb_200mb": """
import gzip
open(PATH + ".gz", "wb").write(gzip.compress(b'{"a": "' + b" " * (200 * 2**20) + b'"}', 9))
""",
    "chat_whatsapp_20mb": """
lines = [f"31/12/2023, 21:{k % 60:02d} - Person {k % 7}: see you at the Louvre at 9, bring tickets {k}" for k in range(260_000)]
open(PATH + ".txt", "w").write("\\n".join(lines)[: 20 * 2**20 - 1])
""",
    "chat_telegram_20mb": """
import json
msgs = [{"id": k, "type": "message", "date": "2023-12-31T21:41:05", "date_unixtime": str(1704058865 + k),
         "from": f"Person {k % 7}", "text": ["see you at ", {"type": "bold", "text": "the Louvre"}, f" at 9 {k}"]}
        for k in range(95_000)]
open(PATH + ".json", "w").write(json.dumps({"name": "Trip", "type": "private_group", "messages": msgs}))
""",
    "note_text_20mb": """
para = "The Louvre opens at 09:00 on 2027-06-15; call +33 1 40 20 53 17 or write to info@louvre.fr. " * 10
open(PATH + ".txt", "w").write(("\\n\\n".join([para] * 20_000))[: 20 * 2**20 - 1])
""",
    "route_zigzag_200k": """
coords = " ".join(f"{-105.0 + k * 3e-5:.6f},{39.7 + 0.01 * (k % 2):.6f},0" for k in range(200_000))
open(PATH + ".kml", "w").write('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
    f"<Placemark><LineString><coordinates>{coords}</coordinates></LineString></Placemark></Document></kml>")
""",
}
RUN = {
    "route_gpx_19mb": "from engine.roadtrip.route_file import read_route_file; read_route_file(PATH + '.gpx')",
    "route_kml_15mb": "from engine.roadtrip.route_file import read_route_file; read_route_file(PATH + '.kml')",
    "route_zigzag_200k": "from engine.roadtrip.route_file import read_route_file; read_route_file(PATH + '.kml')",
    "chat_whatsapp_20mb": "from engine.llm.chat_import import read_export; read_export(PATH + '.txt')",
    "chat_telegram_20mb": "from engine.llm.chat_import import read_export; read_export(PATH + '.json')",
    "note_text_20mb": ("from engine.notes.reading import read_note_file; from engine.notes.pii import strip_pii; "
                       "strip_pii(read_note_file(__import__('pathlib').Path(PATH + '.txt')).text, region='FR')"),
    "pii_5mb_word": "from engine.notes.pii import strip_pii; strip_pii('a' * 5_000_000)",
    "pii_5mb_at": "from engine.notes.pii import strip_pii; strip_pii('a@' * 2_500_000)",
    "pii_5mb_digits": "from engine.notes.pii import strip_pii; strip_pii(' '.join(str(10**7 + 7919 * k) for k in range(550_000)))",
    "weather_gzip_bomb_200mb": """
import asyncio, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
body = open(PATH + ".gz", "rb").read()
class H(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip"); self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try: self.wfile.write(body)
        except OSError: pass
    def log_message(self, *a): pass
srv = ThreadingHTTPServer(("127.0.0.1", 0), H); threading.Thread(target=srv.serve_forever, daemon=True).start()
from engine.net.network import NetworkState
async def go():
    net = NetworkState()
    try: await net.get_json("weather", f"http://127.0.0.1:{srv.server_address[1]}/v1/forecast", {})
    except Exception as exc: print(type(exc).__name__)
    finally: await net.aclose()
asyncio.run(go())
""",
}
CHILD = """
import os, resource, sys, time
os.environ["TRIPWRIGHT_OFFLINE"] = "0"
PATH = {path!r}
{setup}
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
{run}
print("RESULT", time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, base // 1024)
"""


def measure(name: str, folder: str) -> dict:
    path = os.path.join(folder, name)
    if name in SETUP:  # the file is written by a first child, so the measured one only reads it
        subprocess.run([sys.executable, "-c", f"PATH = {path!r}\n" + SETUP[name]], check=True)
    code = CHILD.format(path=path, setup="", run=RUN[name])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    line = next((l for l in done.stdout.splitlines() if l.startswith("RESULT")), None)
    if done.returncode != 0 or line is None:
        return {"case": name, "exit": done.returncode, "wall_s": round(time.perf_counter() - started, 2),
                "error": done.stderr.strip()[-200:]}
    _, seconds, rss, _base = line.split()
    return {"case": name, "exit": 0, "seconds": round(float(seconds), 2), "peak_rss_mb": int(rss)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(name, folder) for name in RUN]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        figures = (f"{row['seconds']:>6.2f} s  {row['peak_rss_mb']:>5} MB RSS" if row["exit"] == 0
                   else f"exit {row['exit']}: {row.get('error', '')}")
        print(f"{row['case']:<26} {figures}")


if __name__ == "__main__":
    main()
