"""The CLI's log file (seed §13.1) written cheaply (issue 34): lines formatted once and the short way
for structlog lines, written in batches, rotated by counted size — and the same lines as before."""

from __future__ import annotations

import json
import logging

import structlog

from engine.log_setup import _formatter, _JsonLinesFile, _JsonLinesFormatter, configure, flush_log_file


class _Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_the_short_way_writes_the_line_the_processor_chain_writes(tmp_path) -> None:
    configure(0, log_dir=tmp_path / "logs")
    keep = _Keep()
    logging.getLogger().addHandler(keep)
    try:
        with structlog.contextvars.bound_contextvars(trace_id="t" * 32, run_id="r1", node="planner"):
            log = structlog.get_logger("tripwright.test")
            log.info("tool_call", tool="flights", latency_ms=1.5, retries=0, cache_hit=True, cost=None)
            log.info("booking", confirmation="QX7K2M", api_key="SECRET", note="mail ann@example.com",
                     nested={"token": "x", "url": "https://h.test/?key=SECRET&a=1", "codes": ["AB12CD"]},
                     text="confirmation QX7K2M, booking reference ZZ99ZZ")
            logging.getLogger("httpx").warning("GET https://h.test/?appid=SECRET")  # a foreign line
    finally:
        logging.getLogger().removeHandler(keep)
        configure(0)
    assert len(keep.records) == 3
    short, chain = _JsonLinesFormatter(), _formatter(json=True)
    for record in keep.records[:2]:
        assert short.format(record) == chain.format(record)
    foreign = [json.loads(f.format(keep.records[2])) for f in (short, chain)]
    assert [{k: v for k, v in line.items() if k != "ts"} for line in foreign] == \
        [{k: v for k, v in foreign[1].items() if k != "ts"}] * 2  # stamped when formatted: only ts differs
    lines = [json.loads(short.format(r)) for r in keep.records]
    assert lines[0]["message"] == "tool_call" and lines[0]["trace_id"] == "t" * 32
    assert lines[1]["api_key"] == "***" and lines[1]["confirmation"] == "QX••••"
    assert lines[1]["nested"]["token"] == "***" and "SECRET" not in json.dumps(lines)
    assert "ann@" not in lines[1]["note"] and "QX7K2M" not in lines[1]["text"] and "ZZ99ZZ" not in lines[1]["text"]


def _logger(handler: logging.Handler) -> logging.Logger:
    logger = logging.getLogger("tripwright.test.file")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger


def test_lines_wait_for_a_batch_a_warning_goes_at_once_and_flush_writes_the_rest(tmp_path) -> None:
    path = tmp_path / "t.log"
    handler = _JsonLinesFile(path, maxBytes=1_000_000, backupCount=1, encoding="utf-8", delay=True)
    logger = _logger(handler)
    logger.info("one")
    assert not path.exists() or path.read_text() == ""  # waiting for its batch
    logger.warning("two")
    assert path.read_text().splitlines() == ["one", "two"]  # a warning takes the waiting lines with it
    for i in range(_JsonLinesFile.FLUSH_LINES):
        logger.info("line %d", i)
    assert len(path.read_text().splitlines()) == 2 + _JsonLinesFile.FLUSH_LINES  # a full batch is written
    logger.info("last")
    handler.flush()
    assert path.read_text().splitlines()[-1] == "last"
    handler.close()


def test_the_file_rolls_over_by_its_counted_size_and_keeps_every_line_in_order(tmp_path) -> None:
    path = tmp_path / "t.log"
    handler = _JsonLinesFile(path, maxBytes=2_000, backupCount=10, encoding="utf-8", delay=True)
    logger = _logger(handler)
    for i in range(400):
        logger.info("line %04d", i)
    handler.close()
    files = [path.with_name(f"t.log.{n}") for n in range(10, 0, -1)] + [path]
    kept = [f for f in files if f.exists()]
    assert len(kept) >= 2 and all(f.stat().st_size <= 2_000 for f in kept)
    lines = [line for f in kept for line in f.read_text().splitlines()]
    assert lines == [f"line {i:04d}" for i in range(400)]  # in order, none lost


def test_the_end_of_a_run_writes_its_lines(tmp_path) -> None:
    configure(0, log_dir=tmp_path / "logs")
    try:
        structlog.get_logger("tripwright.test").info("a_line", n=1)
        flush_log_file()
        text = (tmp_path / "logs" / "tripwright.log").read_text()
    finally:
        configure(0)
    assert json.loads(text)["message"] == "a_line"
