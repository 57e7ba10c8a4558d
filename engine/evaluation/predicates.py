"""A safe evaluator for scenario predicates (seed §14.1 ``must_satisfy``).

Predicates are Python-like expressions over a few names (``itinerary``, ``intent``, ``failure``,
``result``). They are parsed with :mod:`ast` and *interpreted* node by node here: nothing is ever
passed to ``eval``/``exec``/``compile``. Only this subset is understood:

* literals (numbers, strings, ``True``/``False``/``None``), list/tuple/set/dict displays;
* names from the namespace (plus comprehension variables), attribute reads (never a name that
  starts with ``_``), subscripts and slices;
* comparisons (``== != < <= > >= in not in is is not``, chained), ``and``/``or``/``not``,
  ``x if c else y``, arithmetic ``+ - * / // %`` and unary ``-``/``+``;
* list/set comprehensions and generator expressions;
* calls to ``len any all sum min max sorted set str round abs`` and to a few harmless methods
  (``lower upper strip startswith endswith split count weekday isoweekday isoformat get keys
  values items``, and a venue's hours by date — ``facts.venues[id].is_open(date, window)``,
  ``.windows_on(date)``, ``.closed_reason(date)`` — pure reads of the OSM rule);
* the seed's filter ``x | length``, rewritten to ``len(x)`` (``|`` binds tighter than the
  comparison, so ``itinerary.citations | length > 0`` is ``len(itinerary.citations) > 0``).

Everything else (lambda, ``**``, walrus, f-strings, starred arguments, keyword arguments other
than ``default``/``reverse``, dunder attributes, unknown calls) is rejected with
:class:`UnsafeExpression` before anything runs.
"""

from __future__ import annotations

import ast
import operator
from datetime import date, datetime, time
from typing import Any, Callable, Iterator, Mapping

from engine.models.tool_results import Attraction

MAX_SOURCE = 2000
MAX_SEQUENCE = 100_000
MAX_STEPS = 1_000_000  # evaluated nodes per predicate (guards nested comprehensions)


class UnsafeExpression(ValueError):
    """The expression uses something the evaluator does not allow."""


class PredicateError(ValueError):
    """The expression is allowed but failed while evaluating (e.g. a missing attribute)."""


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "any": any, "all": all, "sum": sum, "min": min, "max": max, "sorted": sorted,
    "set": set, "str": str, "round": round, "abs": abs,
}
_KEYWORDS = {"default", "reverse"}
_METHODS: dict[str, tuple[type, ...]] = {
    "lower": (str,), "upper": (str,), "strip": (str,), "startswith": (str,), "endswith": (str,),
    "split": (str,), "count": (str, list, tuple), "weekday": (date,), "isoweekday": (date,),
    "isoformat": (date, time, datetime), "get": (dict,), "keys": (dict,), "values": (dict,),
    "items": (dict,), "is_open": (Attraction,), "windows_on": (Attraction,), "closed_reason": (Attraction,),
}
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.BitOr: operator.or_, ast.BitAnd: operator.and_}
_UNARY = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_ALLOWED = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.Store, ast.Attribute, ast.Subscript,
            ast.Slice, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Compare, ast.BoolOp, ast.And, ast.Or,
            ast.UnaryOp, ast.BinOp, ast.IfExp, ast.Call, ast.keyword, ast.ListComp, ast.SetComp,
            ast.GeneratorExp, ast.comprehension, *_BINOPS, *_UNARY, *_COMPARE)


class _LengthFilter(ast.NodeTransformer):
    """``x | length`` → ``len(x)``."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.BitOr) and isinstance(node.right, ast.Name) and node.right.id == "length":
            return ast.copy_location(ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[node.left],
                                              keywords=[]), node)
        return node


class SafeExpression:
    """A parsed, checked predicate; :meth:`evaluate` runs it against a namespace."""

    def __init__(self, source: str) -> None:
        if not isinstance(source, str) or not source.strip():
            raise UnsafeExpression("a predicate must be a non-empty string")
        if len(source) > MAX_SOURCE:
            raise UnsafeExpression(f"predicate longer than {MAX_SOURCE} characters")
        self.source = source
        try:
            tree = ast.parse(source.strip(), mode="eval")
        except SyntaxError as exc:
            raise UnsafeExpression(f"not a valid expression: {exc.msg}") from None
        self.tree = ast.fix_missing_locations(_LengthFilter().visit(tree))
        self._check(self.tree)

    # -- static check --------------------------------------------------------------------------
    def _check(self, tree: ast.AST) -> None:
        for node in ast.walk(tree):
            if not isinstance(node, _ALLOWED):
                raise UnsafeExpression(f"{type(node).__name__} is not allowed in a predicate")
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                raise UnsafeExpression(f"attribute {node.attr!r} is not allowed")
            if isinstance(node, ast.Name) and node.id.startswith("_"):
                raise UnsafeExpression(f"name {node.id!r} is not allowed")
            if isinstance(node, ast.Call):
                self._check_call(node)
            if isinstance(node, ast.comprehension) and node.is_async:
                raise UnsafeExpression("async comprehensions are not allowed")
            if isinstance(node, ast.comprehension) and not _is_target(node.target):
                raise UnsafeExpression("comprehension targets must be names or tuples of names")

    def _check_call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name):
            if node.func.id not in _FUNCTIONS:
                raise UnsafeExpression(f"call to {node.func.id!r} is not allowed")
        elif isinstance(node.func, ast.Attribute):
            if node.func.attr not in _METHODS:
                raise UnsafeExpression(f"method {node.func.attr!r} is not allowed")
        else:
            raise UnsafeExpression("only calls to named functions and methods are allowed")
        for kw in node.keywords:
            if kw.arg not in _KEYWORDS:
                raise UnsafeExpression(f"keyword argument {kw.arg!r} is not allowed")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise UnsafeExpression("starred arguments are not allowed")

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, namespace: Mapping[str, Any]) -> Any:
        try:
            return _Interpreter(dict(namespace)).eval(self.tree.body)
        except (UnsafeExpression, PredicateError):
            raise
        except Exception as exc:  # noqa: BLE001 - reported as the predicate's failure
            raise PredicateError(f"{type(exc).__name__}: {exc}") from None


def _is_target(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return not node.id.startswith("_")
    return isinstance(node, ast.Tuple) and all(_is_target(e) for e in node.elts)


class _Interpreter:
    def __init__(self, names: dict[str, Any]) -> None:
        self.scopes: list[dict[str, Any]] = [names]
        self.steps = 0

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in _FUNCTIONS:
            return _FUNCTIONS[name]
        raise PredicateError(f"unknown name {name!r}")

    def eval(self, node: ast.AST) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise PredicateError(f"predicate took more than {MAX_STEPS} steps")
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise UnsafeExpression(f"{type(node).__name__} is not allowed in a predicate")
        return method(node)

    def _Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id)

    def _Attribute(self, node: ast.Attribute) -> Any:
        if node.attr.startswith("_"):
            raise UnsafeExpression(f"attribute {node.attr!r} is not allowed")
        target = self.eval(node.value)
        try:
            value = getattr(target, node.attr)
        except AttributeError:
            raise PredicateError(f"{type(target).__name__} has no attribute {node.attr!r}") from None
        if callable(value) and node.attr not in _METHODS:
            raise UnsafeExpression(f"method {node.attr!r} is not allowed")
        return value

    def _Subscript(self, node: ast.Subscript) -> Any:
        target = self.eval(node.value)
        if isinstance(node.slice, ast.Slice):
            s = node.slice
            key = slice(*(self.eval(p) if p is not None else None for p in (s.lower, s.upper, s.step)))
        else:
            key = self.eval(node.slice)
        return target[key]

    def _List(self, node: ast.List) -> list:
        return [self.eval(e) for e in node.elts]

    def _Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.eval(e) for e in node.elts)

    def _Set(self, node: ast.Set) -> set:
        return {self.eval(e) for e in node.elts}

    def _Dict(self, node: ast.Dict) -> dict:
        if any(k is None for k in node.keys):
            raise UnsafeExpression("dict unpacking is not allowed")
        return {self.eval(k): self.eval(v) for k, v in zip(node.keys, node.values)}

    def _BoolOp(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for expr in node.values:
            value = self.eval(expr)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        return _UNARY[type(node.op)](self.eval(node.operand))

    def _BinOp(self, node: ast.BinOp) -> Any:
        left, right = self.eval(node.left), self.eval(node.right)
        if isinstance(node.op, ast.Mult):
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_SEQUENCE:
                    raise PredicateError("sequence repetition too large")
        if isinstance(node.op, ast.Mod) and isinstance(left, (str, bytes)):
            raise UnsafeExpression("%-formatting is not allowed")
        return _BINOPS[type(node.op)](left, right)

    def _Compare(self, node: ast.Compare) -> bool:
        left = self.eval(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, node: ast.IfExp) -> Any:
        return self.eval(node.body) if self.eval(node.test) else self.eval(node.orelse)

    def _Call(self, node: ast.Call) -> Any:
        args = [self.eval(a) for a in node.args]
        kwargs = {kw.arg: self.eval(kw.value) for kw in node.keywords}
        if isinstance(node.func, ast.Name):
            fn = _FUNCTIONS.get(node.func.id)
            if fn is None or any(node.func.id in scope for scope in self.scopes[1:]):
                raise UnsafeExpression(f"call to {node.func.id!r} is not allowed")
            return fn(*args, **kwargs)
        if isinstance(node.func, ast.Attribute):
            name = node.func.attr
            target = self.eval(node.func.value)
            if name not in _METHODS or not isinstance(target, _METHODS[name]):
                raise UnsafeExpression(f"method {name!r} is not allowed on {type(target).__name__}")
            return getattr(target, name)(*args, **kwargs)
        raise UnsafeExpression("only calls to named functions and methods are allowed")

    # -- comprehensions ------------------------------------------------------------------------
    def _iterate(self, generators: list[ast.comprehension], i: int = 0) -> Iterator[None]:
        if i == len(generators):
            yield None
            return
        gen = generators[i]
        for item in self.eval(gen.iter):
            self._bind(gen.target, item)
            if all(self.eval(cond) for cond in gen.ifs):
                yield from self._iterate(generators, i + 1)

    def _bind(self, target: ast.AST, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scopes[-1][target.id] = value
            return
        values = list(value)
        if len(values) != len(target.elts):  # type: ignore[attr-defined]
            raise PredicateError("cannot unpack: wrong number of values")
        for t, v in zip(target.elts, values):  # type: ignore[attr-defined]
            self._bind(t, v)

    def _comprehension(self, node, make: Callable[[Iterator[Any]], Any]) -> Any:
        self.scopes.append({})
        try:
            return make(self.eval(node.elt) for _ in self._iterate(node.generators))
        finally:
            self.scopes.pop()

    def _ListComp(self, node: ast.ListComp) -> list:
        return self._comprehension(node, _bounded_list)

    def _SetComp(self, node: ast.SetComp) -> set:
        return self._comprehension(node, lambda it: set(_bounded_list(it)))

    def _GeneratorExp(self, node: ast.GeneratorExp) -> list:
        # Materialised (bounded) so the comprehension scope is still in place while it runs;
        # any()/all() over it still see every element in order.
        return self._comprehension(node, _bounded_list)


def _bounded_list(items: Iterator[Any]) -> list:
    out = []
    for item in items:
        out.append(item)
        if len(out) > MAX_SEQUENCE:
            raise PredicateError("comprehension produced too many items")
    return out


def check(source: str, namespace: Mapping[str, Any]) -> Any:
    """Parse, check and evaluate ``source`` in one go."""
    return SafeExpression(source).evaluate(namespace)


__all__ = ["PredicateError", "SafeExpression", "UnsafeExpression", "check"]
