"""How many travel (SPEC_DECISIONS §2.9 ``travellers``), read from a trip prompt.

"for 2 people", "four of us", "party of three", "family of 4", "2 adults and 3 kids", "couple", "with 2 kids"
(the writer plus the children, unless adults are counted); "with kids" / "with our son" count two
children / one when the number is unsaid. The phrases are blanked from the scan,
so their numbers are never read as a trip length or a budget.
"""

from __future__ import annotations

import re

from engine.errors import InputError

from .prompt_text import Scan

MAX_TRAVELLERS = 12
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_N = rf"(\d{{1,3}}|{'|'.join(_WORDS)})"
_FLAGS = re.IGNORECASE | re.ASCII

_GROUP = re.compile(rf"\b(?:party|group|family)\s+of\s+{_N}(?:\s+(?:people|persons|travel+ers|guests))?\b",
                    _FLAGS)
_PEOPLE = re.compile(rf"\b{_N}\s+(?:people|persons|travel+ers|guests|of\s+us)\b", _FLAGS)
_ADULTS = re.compile(rf"\b{_N}\s+(?:adults|grown[\s-]?ups)\b", _FLAGS)
_KIDS = re.compile(rf"\b{_N}\s+(?:kids|children|child|teens|teenagers|toddlers)\b", _FLAGS)
# "with kids", "and the children", "with our son": children, how many unsaid (plural: two)
_SOME_KIDS = re.compile(r"\b(?:with|and)\s+(?:(?:my|our|the)\s+)?(kids|children|teens|teenagers|toddlers|sons|daughters"
                        r"|kid|child|teen|teenager|toddler|son|daughter|baby)\b(?![-'\w])", _FLAGS)
_COUPLE = re.compile(r"\b(?:couple|two\s+of\s+us|my\s+(?:wife|husband|partner|girlfriend|boyfriend))\b", _FLAGS)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else _WORDS[raw.lower()]


def take_party_size(scan: Scan) -> int | None:
    """The party size the prompt states (None when it says nothing); blanks what it read."""
    return take_party(scan)[0]


def take_party(scan: Scan) -> tuple[int | None, bool]:
    """(party size or None, whether the phrases read mention children: "2 kids", "family of 4"),
    so a reader of the blanked scan still knows the party has kids."""
    adults = sum(_count(m.group(1)) for m in scan.take(_ADULTS))
    kid_counts = scan.take(_KIDS)
    kids = sum(_count(m.group(1)) for m in kid_counts)
    unsaid = scan.take(_SOME_KIDS)
    kids += sum(2 if m.group(1).lower().endswith("s") or m.group(1).lower() == "children" else 1 for m in unsaid)
    families = scan.take(_GROUP)
    group = [_count(m.group(1)) for m in families + scan.take(_PEOPLE)]
    with_kids = bool(kid_counts or unsaid) or any(m.group(0).lower().startswith("family") for m in families)
    return _size(adults, kids, group, bool(scan.take(_COUPLE))), with_kids


def _size(adults: int, kids: int, group: list[int], couple: bool) -> int | None:
    if group and not adults:
        size = max(group) if not kids else max(max(group), kids + 1)
    elif adults or kids:
        size = (adults or (2 if couple else 1)) + kids
    elif couple:
        size = 2
    else:
        return None
    if not 1 <= size <= MAX_TRAVELLERS:
        raise InputError("travellers", f"{size} travellers; Tripwright plans for 1-{MAX_TRAVELLERS}")
    return size
