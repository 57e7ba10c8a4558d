"""A large WhatsApp export stored as the group's chat vs the same bytes imported as a note
(issue 35 §4: 386 s vs 35 s for 19 MB; the bound is ≤ 2× the note import). Each through the real
CLI in a child process, against a throwaway TRIPWRIGHT_HOME with one planned trip; wall times
printed.

    .venv/bin/python bench/chat_import_bench.py [--mb 19] [--json]

The note import runs with ``TRIPWRIGHT_LOCAL_EMBEDDINGS=0`` (words only), as a machine without
the local model would: the store's part is what is compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXE = Path(sys.executable).with_name("tripwright")
WORDS = ("we could go to the louvre on monday then dinner near the canal what about tuesday museum "
         "tickets train bakery early sunset walk rain plan b boat bike").split()


def whatsapp_export(path: Path, mb: float) -> int:
    """An Android export of ``mb`` MB: four people, a message a minute, some over two lines."""
    r, lines, size, n = random.Random(7), [], 0, 0
    while size < mb * 1024 * 1024:
        day, minute = n // 1440, n % 1440
        line = (f"{1 + day % 28:02d}/{1 + day // 28 % 12:02d}/{2024 + day // 336}, {minute // 60:02d}:{minute % 60:02d}"
                f" - {r.choice(('Ana', 'Ben', 'Chloé', 'Dev'))}: {' '.join(r.choices(WORDS, k=r.randint(3, 14)))}")
        if n % 9 == 0:
            line += "\n" + " ".join(r.choices(WORDS, k=6))
        lines.append(line)
        size, n = size + len(line) + 1, n + 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return n


def timed(args: list[str], env: dict) -> tuple[float, str]:
    """(seconds, the child's last line)."""
    started = time.perf_counter()
    done = subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=3600)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{args[:2]} failed: {done.stderr.strip()}")
    return took, (done.stdout.strip().splitlines() or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=19.0)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, export = Path(tmp) / "home", Path(tmp) / "chat.txt"
        env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {
            "TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_LOCAL_EMBEDDINGS": "0"}
        messages = whatsapp_export(export, opts.mb)
        subprocess.run([str(EXE), "plan", "--intent", str(ROOT / "docs/examples/paris.json"), "--save",
                        "--today", "2026-11-23"], capture_output=True, env=env, check=True, timeout=600)
        trip = subprocess.run([str(EXE), "trips", "list"], capture_output=True, text=True, env=env,
                              check=True).stdout.split()[0]
        chat_s, chat_said = timed(["chat", "import", trip, str(export)], env)
        note_s, note_said = timed(["notes", "import", str(export), "--destination", "paris"], env)
        size_mb = round(export.stat().st_size / 2**20, 1)
    figures = {"export_mb": size_mb,
               "messages": messages, "chat_import_s": round(chat_s, 1), "note_import_s": round(note_s, 1),
               "ratio": round(chat_s / note_s, 2), "chat_said": chat_said, "note_said": note_said}
    if opts.json:
        print(json.dumps(figures, indent=2))
    else:
        for k, v in figures.items():
            print(f"{k:>14}: {v}")


if __name__ == "__main__":
    main()
