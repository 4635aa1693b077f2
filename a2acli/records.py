"""Records: a few named fields, set once. The base of the small value classes that start-up defines
(the call's options, the settings table's rows, a binding's facts, a card fetched...). Stdlib only,
no I/O: every layer may import it.

Each record is a plain class: its fields are its `__slots__`, in the order of its handwritten
`__init__`'s parameters, which sets them once with `_set`. A `typing.NamedTuple` costs 60-230 us to
define (collections.namedtuple execs a generated `__new__` and makes a property per field; typing
reads every annotation) and a dataclass more; a plain class with slots about 7 us. Nothing here
generates code (no exec, no eval): mypy reads each constructor as written.

What a record is not: a tuple. It does not unpack, index, iterate or compare field by field; two
records are equal only when they are the same object (the tables' rows, the bindings, are compared
by identity). It copies and pickles as a NamedTuple did (`__reduce__`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (a type only: a TypeVar costs start-up some microseconds)
    from typing import TypeVar

    R = TypeVar("R", bound="Record")


class Record:
    """Immutable once made: `__init__` sets each field with `_set`, and setting an attribute later
    is an AttributeError (a record is shared: the options of a run, a row of a table)."""

    __slots__: tuple[str, ...] = ()

    def _set(self, *values: Any) -> None:
        """Each field, in the order of `__slots__` (a record's `__init__` passes its parameters in
        that order; tests/test_records.py checks every record's)."""
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: make another with _replace")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _replace(self: R, **changes: Any) -> R:
        """A copy with `changes`, made by the record's own `__init__` (a name it does not take is a
        TypeError there), as `NamedTuple._replace` was."""
        return type(self)(**{**{name: getattr(self, name) for name in self.__slots__}, **changes})

    def __reduce__(self) -> tuple[Any, ...]:
        """copy.copy, copy.deepcopy and pickle rebuild a record through its `__init__` (its
        parameters are its slots, in order), as a NamedTuple was rebuilt: their default sets each
        slot with setattr, which a record refuses."""
        return (type(self), tuple(getattr(self, name) for name in self.__slots__))

    def __repr__(self) -> str:  # for tracebacks, --debug and a failing test's message
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"
