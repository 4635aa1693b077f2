"""The records (a2acli.records): plain classes whose fields are their __slots__, set once by a
handwritten __init__. Each record's __init__ must take its fields in the order of its slots, by
the same names (`_set` pairs them by position, `_replace` passes them back by name)."""

from __future__ import annotations

import importlib
import inspect

import pytest

from a2acli.records import Record

MODULES = (
    "a2acli.pipeline.options",
    "a2acli.settings.files",
    "a2acli.settings.precedence",
    "a2acli.settings.table",
    "a2acli.transport.card",
    "a2acli.transport.client",
    "a2acli.wire.bindings",
    "a2acli.wire.bindings.base",
    "a2acli.wire.dialects",
    "a2acli.wire.endpoints",
)


def records() -> list[type[Record]]:
    for name in MODULES:
        importlib.import_module(name)
    found: list[type[Record]] = []
    todo = list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return sorted(found, key=lambda c: c.__qualname__)


def test_the_records_are_the_start_up_ones():
    names = {c.__name__ for c in records()}
    assert names >= {"CallOptions", "BindingInfo", "TransportConfig", "Resolved", "Setting", "Encoded", "HttpRequest", "ConfigFile", "Layer", "Dialect", "FetchedCard", "Endpoint"}


@pytest.mark.parametrize("cls", records(), ids=lambda c: c.__name__)
def test_init_takes_the_slots_in_order_and_sets_each(cls: type[Record]):
    params = list(inspect.signature(cls.__init__).parameters)[1:]
    assert params == list(cls.__slots__)
    assert set(cls.__slots__) <= set(inspect.get_annotations(cls)), "each field is annotated (mypy reads the class's)"
    given = {name: object() for name in cls.__slots__}
    rec = cls(**given)
    assert all(getattr(rec, name) is value for name, value in given.items())
    positional = cls(*given.values())
    assert all(getattr(positional, name) is value for name, value in given.items())


@pytest.mark.parametrize("cls", records(), ids=lambda c: c.__name__)
def test_a_record_is_immutable_and_replace_copies_it(cls: type[Record]):
    given = {name: object() for name in cls.__slots__}
    rec = cls(**given)
    first = cls.__slots__[0]
    with pytest.raises(AttributeError, match="immutable"):
        setattr(rec, first, 1)
    with pytest.raises(AttributeError, match="immutable"):
        delattr(rec, first)
    with pytest.raises(AttributeError):
        rec.not_a_field = 1
    other = rec._replace(**{first: "changed"})
    assert type(other) is cls and getattr(other, first) == "changed" and getattr(rec, first) is given[first]
    assert all(getattr(other, n) is given[n] for n in cls.__slots__[1:])
    with pytest.raises(TypeError):
        rec._replace(not_a_field=1)
    assert repr(rec).startswith(f"{cls.__name__}({first}=")


def test_records_compare_by_identity():
    """No caller compares two records field by field: the bindings and the tables' rows are
    compared by identity (a NamedTuple compared as a tuple, a record does not)."""
    from a2acli.wire.bindings import BINDINGS, JSONRPC, by_flag

    assert by_flag("jsonrpc") is JSONRPC and len(set(BINDINGS)) == 3
    copy = JSONRPC._replace()
    assert copy != JSONRPC and copy.flag == JSONRPC.flag and {JSONRPC: 1}.get(by_flag("jsonrpc")) == 1


@pytest.mark.parametrize("cls", records(), ids=lambda c: c.__name__)
def test_a_record_copies_and_pickles_as_its_named_tuple_did(cls: type[Record]):
    """copy.copy, copy.deepcopy and pickle rebuild a record through its __init__, as they did the
    NamedTuple it was: by default they set each slot with setattr, which a record refuses
    ("immutable"), so a record inside anything copied or pickled broke it."""
    import copy
    import pickle

    given = {name: (i, [name]) for i, name in enumerate(cls.__slots__)}  # picklable, a list inside to deep-copy
    rec = cls(**given)
    shallow = copy.copy(rec)
    assert type(shallow) is cls and all(getattr(shallow, n) is given[n] for n in cls.__slots__)
    deep = copy.deepcopy(rec)
    assert type(deep) is cls and all(getattr(deep, n) == given[n] and getattr(deep, n)[1] is not given[n][1] for n in cls.__slots__)
    pickled = pickle.loads(pickle.dumps(rec))
    assert type(pickled) is cls and all(getattr(pickled, n) == given[n] for n in cls.__slots__)
    with pytest.raises(AttributeError, match="immutable"):
        setattr(deep, cls.__slots__[0], 1)  # a copy is a record like any other
