"""HTML microdata (``itemscope``/``itemtype``/``itemprop``) as the same dicts JSON-LD gives:
``{"@type": "LodgingReservation", "reservationFor": {"@type": "Hotel", "name": …}, …}``.

Property values follow the WHATWG microdata rules: ``meta`` → ``content``, ``a``/``link`` →
``href``, ``img`` → ``src``, ``time`` → ``datetime``, ``data``/``meter`` → ``value``, anything else
its text; an ``itemprop`` element that is itself an ``itemscope`` is a nested item. A property
named twice becomes a list. Items nest at most ``MAX_DEPTH`` deep; the tree is walked without
recursion, so a page of 10,000 nested ``div``s costs a loop, not a stack.
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 8
MAX_ITEMS = 200
MAX_TEXT = 500
MAX_STEPS = 300  # nodes read for one text value: a name or an address is a handful
_URL_ATTR = {"a": "href", "area": "href", "link": "href", "img": "src", "audio": "src", "video": "src",
             "source": "src", "iframe": "src", "embed": "src", "track": "src", "object": "data"}


def microdata_items(html: str) -> list[dict[str, Any]]:
    """The top-level items of ``html`` (already cut to size by the caller), in document order."""
    from bs4 import BeautifulSoup

    import warnings

    from bs4 import XMLParsedAsHTMLWarning
    with warnings.catch_warnings():  # a file that looks like XML is still read as the HTML it was given as
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(html, "html.parser")
    tops = [el for el in soup.find_all(attrs={"itemscope": True}) if not el.has_attr("itemprop")]
    return [_item(el) for el in tops[:MAX_ITEMS]]


def _item(root) -> dict[str, Any]:
    """One item and its nested items, breadth by breadth (no recursion)."""
    top: dict[str, Any] = {"@type": _type_of(root)}
    pending = [(root, top, 0)]
    while pending:
        scope, out, depth = pending.pop()
        for prop in _properties(scope):
            if prop.has_attr("itemscope"):
                if depth + 1 >= MAX_DEPTH:
                    continue
                value: Any = {"@type": _type_of(prop)}
                pending.append((prop, value, depth + 1))
            else:
                value = _value(prop)
            for name in _names(prop):
                _add(out, name, value)
    return top


def _properties(scope) -> list:
    """The ``itemprop`` elements that belong to ``scope``: its descendants, not entering a nested
    ``itemscope`` (whose properties are its own)."""
    found, stack = [], list(reversed(_children(scope)))
    while stack:
        el = stack.pop()
        if el.has_attr("itemprop"):
            found.append(el)
        if not el.has_attr("itemscope"):
            stack.extend(reversed(_children(el)))
    return found


def _children(el) -> list:
    return [c for c in el.children if getattr(c, "name", None)]


def _type_of(el) -> str:
    words = _words(el.get("itemtype"))
    return words[0].rstrip("/").rsplit("/", 1)[-1] if words else ""


def _names(el) -> list[str]:
    return [w.rstrip("/").rsplit("/", 1)[-1] for w in _words(el.get("itemprop"))]


def _words(attr: Any) -> list[str]:
    if isinstance(attr, list):
        return [w for a in attr for w in str(a).split()]
    return str(attr or "").split()


def _value(el) -> str:
    name = el.name
    if name == "meta":
        raw = el.get("content", "")
    elif name in _URL_ATTR:
        raw = el.get(_URL_ATTR[name], "")
    elif name == "time" and el.has_attr("datetime"):
        raw = el["datetime"]
    elif name in ("data", "meter"):
        raw = el.get("value", "")
    else:
        raw = _text_of(el)
    return " ".join(str(raw).split())[:MAX_TEXT]


def _text_of(el) -> str:
    """The element's text, reading at most ``MAX_TEXT`` characters and ``MAX_STEPS`` nodes (a
    walk of its own: BeautifulSoup's ``descendants`` first finds the subtree's end, so an
    ``itemprop`` wrapping the rest of a hostile page would be walked whole for every item)."""
    from bs4 import Comment, NavigableString

    parts, size, steps = [], 0, 0
    stack = list(reversed(el.contents))
    while stack and steps < MAX_STEPS and size <= MAX_TEXT:
        node = stack.pop()
        steps += 1
        if isinstance(node, NavigableString):
            if not isinstance(node, Comment):
                parts.append(str(node))
                size += len(node)
        else:
            stack.extend(reversed(node.contents))
    return " ".join(parts)


def _add(out: dict[str, Any], name: str, value: Any) -> None:
    if name not in out:
        out[name] = value
    elif isinstance(out[name], list):
        out[name].append(value)
    else:
        out[name] = [out[name], value]
