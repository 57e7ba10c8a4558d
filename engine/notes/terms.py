"""Words of a question or a passage, for lexical search and its calibrated confidence.

Lexical confidence (documented in ARCHITECTURE): a BM25 score has no fixed scale, so τ = 0.70
cannot apply to it. We calibrate by the best score the query could get: with term frequencies
saturated and lengths normalised away, BM25 of a passage is the sum of the IDFs of the query
terms it contains, and the best possible passage contains them all. So

    confidence = Σ idf(t) over query terms in the passage / Σ idf(t) over all query terms,
    idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))   (BM25's IDF, N chunks of the destination)

which is in [0, 1]: 1.0 when the passage holds every word asked about, and a passage missing the
rarest words (the names) falls below τ even if it holds the common ones. Words are folded
(case, diacritics) and stemmed with Snowball English, like the full-text indexes.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+")
STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers him his how i if in into is it its itself just me more most my no nor not
now of off on once only or other our out over own same she should so some such than that the their
them then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours tell know please there's what's whats
""".split())
# Words that name a kind of place rather than the place: "Musée du Louvre" is found by "louvre".
PLACE_KINDS = frozenset("""
museum musee museo museum's palace palais palazzo park parc parco garden gardens jardin giardino
temple shrine cathedral basilica church chapel market marche mercato walk neighbourhood neighborhood
village de du des la le les di del della dei degli da e et the of national nazionale
""".split())


_ASIDE = re.compile(r"\([^)]*\)")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def fold(text: str) -> str:
    """Case and diacritics folded ("Musée" → "musee"), as the full-text indexes do."""
    if text.isascii():
        return text.lower()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text.casefold()))


@lru_cache(maxsize=1)
def _stemmer():  # noqa: ANN202
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return _stemmer().stemWord(word)


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def query_terms(text: str, *, place_name: bool = False) -> list[str]:
    """Distinct content words of a question (or of a place's name), in order."""
    skip = STOPWORDS | PLACE_KINDS if place_name else STOPWORDS
    if place_name and _ASIDE.sub("", text).strip():
        # an aside qualifies a name, "Angelina (rue de Rivoli)", "Wigwam Motel (Wigwam Village #6)":
        # notes name the place without it
        text = _ASIDE.sub(" ", text)
    seen: dict[str, None] = {}
    for w in words(text):
        if w not in skip and (len(w) > 1 or w.isdigit()):
            seen.setdefault(w, None)
    terms = list(seen)
    if place_name and not terms:  # a name made only of kind words ("Central Park" keeps "central")
        return query_terms(text)
    return terms[:16]


def word_set(text: str) -> frozenset[str]:
    """A passage's distinct folded words (cheap: no stemming until a query word needs it)."""
    return frozenset(words(text))


def has_word(passage: frozenset[str], word: str) -> bool:
    """Whether the passage holds ``word`` up to stemming ("hours" finds "hour"). Only the
    passage's words sharing the first three letters are stemmed."""
    if word in passage:
        return True
    target, head = stem(word), word[:3]
    return any(w.startswith(head) and stem(w) == target for w in passage)


def idf(n_chunks: int, df: int) -> float:
    return math.log(1 + (n_chunks - df + 0.5) / (df + 0.5))


def coverage(terms: list[str], weights: dict[str, float], passage: frozenset[str]) -> float:
    """The calibrated lexical confidence of a passage, given its ``word_set`` (module docstring)."""
    total = sum(weights[t] for t in terms)
    if total <= 0:
        return 0.0
    return sum(weights[t] for t in terms if has_word(passage, t)) / total
