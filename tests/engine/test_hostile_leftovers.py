"""Issue 35 §4: the leftovers of the second hostile pass — a geocoder that drips its status line,
a valid long PDF note refused under another error's name, a diagnostics bundle onto a full disk,
and a large WhatsApp chat import (its speed is measured by bench/chat_import_bench.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")


class StatusDripper:
    """A server on 127.0.0.1 that answers every request with its status line one byte every
    ``every_s`` — and never gets to the headers (h11 waits for up to 16 KB of them)."""

    def __init__(self, every_s: float = 0.25) -> None:
        self.every_s, self.stop, self.requests = every_s, threading.Event(), 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.requests += 1
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            line = b"HTTP/1.1 200 " + b"O" * 15_000
            for byte in line:
                if self.stop.is_set():
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return
                time.sleep(self.every_s)

    def __enter__(self) -> "StatusDripper":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


GEOCODE_THROUGH_THE_EXECUTOR = """
import asyncio, time
from engine.geocode.models import GeoCandidate, GeocodeRequest
from engine.geocode.nominatim import NominatimGeocoder, Throttle
from engine.tools.executor import ExecutorPolicy, ToolExecutor
started = time.monotonic()
async def main():
    try:  # a hard timeout far from the adapter's 3 s: the adapter's own deadline ends the attempt
        await ToolExecutor(ExecutorPolicy(hard_timeout_s=10.0)).call("geocode", NominatimGeocoder("test", throttle=Throttle(0.0)).candidates,
                                  GeocodeRequest(query="Hoboken"), result_type=list[GeoCandidate])
    except Exception as exc:
        print(type(exc).__name__, exc)
asyncio.run(main())
print(f"elapsed {time.monotonic() - started:.1f}")
"""


def test_a_geocoder_dripping_its_status_line_cannot_keep_the_process_alive() -> None:
    """The reply's deadline covers connecting, the status line and the headers, and a drip that used
    the whole time is not asked again: the process ends at the adapter's 3 s deadline, within 2 × the
    executor's 4 s hard timeout (it stayed for as long as the server dripped: 186 s in the issue,
    here past the 120 s bound)."""
    with StatusDripper() as server:
        env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"} | {"TRIPWRIGHT_NOMINATIM_URL": server.url}
        started = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-c", GEOCODE_THROUGH_THE_EXECUTOR], capture_output=True,
                                  text=True, env=env, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the process was still waiting for the status line after 120 s")
        took = time.monotonic() - started
        asked = server.requests
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith("ToolTimeout")]
    assert said == ["ToolTimeout geocode: reply took longer than 3 s"], done.stdout
    assert asked == 1, asked  # no retry after a drip used the budget
    assert took < 60, took  # far above the ~4 s it takes, far below the drip's length


# -- one error cannot pass for another ----------------------------------------------------------
def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_no_error_of_ours_is_also_a_built_in_error() -> None:
    """An ``except ValueError`` around a library call caught our InputError and worded it as the
    library's failure; none of the engine's errors is a built-in error class but Exception."""
    import builtins

    import engine.bookings, engine.notes.reading, engine.places.pack_store, engine.tools.executor  # noqa: F401,E401
    from engine.errors import TripwrightError

    built_in = {v for v in vars(builtins).values() if isinstance(v, type) and issubclass(v, BaseException)}
    for cls in [TripwrightError, *_subclasses(TripwrightError)]:
        mixed = [base.__name__ for base in cls.__mro__ if base in built_in - {Exception, BaseException}]
        assert not mixed, f"{cls.__name__} is also a {mixed}"


def test_a_valid_5000_page_pdf_note_is_refused_for_its_length(tmp_path) -> None:
    from pypdf import PdfWriter

    from engine.errors import InputError, one_line
    from engine.notes.reading import MAX_PDF_PAGES, read_note_file

    writer = PdfWriter()
    for _ in range(5000):
        writer.add_blank_page(width=72, height=72)
    path = tmp_path / "guide.pdf"
    with path.open("wb") as out:
        writer.write(out)
    with pytest.raises(InputError) as info:
        read_note_file(path)
    line = one_line(info.value)
    assert line == f"file guide.pdf: a PDF of 5,000 pages; a note is at most {MAX_PDF_PAGES}", line
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    done = subprocess.run([str(EXE), "notes", "import", str(path), "--destination", "paris"], capture_output=True,
                          text=True, env=env, timeout=180)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "a PDF of 5,000 pages" in done.stderr and "unreadable" not in done.stderr, done.stderr


# -- diagnostics --bundle onto a full disk --------------------------------------------------------
def _diagnostics(home: Path, *args: str, preexec=None, wrap: list[str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    noise = os.urandom(100_000).hex()  # ~100 KB once deflated: more than the disk holds
    (logs / "tripwright.log").write_text("\n".join(noise[i:i + 100] for i in range(0, len(noise), 100)))
    return subprocess.run([*(wrap or []), str(EXE), "diagnostics", *args], capture_output=True, text=True, env=env,
                          timeout=120, preexec_fn=preexec)


def _small_files() -> None:
    """In the child: files may grow to 16 KB; a larger write fails (EFBIG) as on a full disk."""
    import resource
    import signal
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_FSIZE is POSIX")
def test_a_diagnostics_bundle_that_cannot_be_written_whole_is_one_line(tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    done = _diagnostics(tmp_path / "home", "--bundle", str(out / "diag.zip"), preexec=_small_files)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("tripwright: --bundle: cannot write ") and done.stderr.count("\n") == 1, done.stderr
    assert "File too large; nothing was written" in done.stderr and "Traceback" not in done.stderr
    assert list(out.iterdir()) == []  # no zip, no staged part


def test_a_diagnostics_bundle_onto_a_full_tmpfs_is_one_line(tmp_path) -> None:
    from .test_cli_hostile import NAMESPACE_PROBLEM
    if NAMESPACE_PROBLEM is not None:
        pytest.skip(NAMESPACE_PROBLEM)
    full = tmp_path / "full"
    full.mkdir()
    listing = tmp_path / "listing.txt"
    script = f'mount -t tmpfs -o size=64k tmpfs "{full}" && "$@"; rc=$?; ls -A "{full}" > "{listing}"; exit $rc'
    done = _diagnostics(tmp_path / "home", "--bundle", str(full / "diag.zip"),
                        wrap=["unshare", "-m", "sh", "-c", script, "sh"])
    assert done.returncode == 2, done.stderr
    assert "No space left on device; nothing was written" in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert listing.read_text() == ""  # the tmpfs was left empty
