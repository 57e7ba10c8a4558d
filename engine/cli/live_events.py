"""``--events FILE`` as a live log: each event of the run is written and flushed as it happens, so
``tail -f FILE`` follows a run. The file is opened at the first event (bad input found before the
run writes nothing); when the run or the writing of the other outputs fails, the file is put back
as it was (its earlier content, or no file)."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.models import StreamEvent


class LiveEvents:
    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.count = 0
        self._file = None
        self._previous: bytes | None = None
        self._lock = threading.Lock()  # the run's heartbeat thread emits too

    def __call__(self, event: StreamEvent) -> None:
        with self._lock:
            if self._file is None:
                self._previous = self.path.read_bytes() if self.path.is_file() else None
                self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (held for the run)
            self._file.write(event.model_dump_json() + "\n")
            self._file.flush()
            self.count += 1

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def rollback(self) -> None:
        """The run did not end in outputs: the file as it was before it."""
        self.close()
        if self.count == 0:
            return
        if self._previous is None:
            self.path.unlink(missing_ok=True)
        else:
            self.path.write_bytes(self._previous)
        self.count = 0
