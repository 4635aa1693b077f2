"""Vendor deviations, in one table. `spec` follows the official A2A specification; every other
entry names exactly what its vendor does differently, so a user opts into it with `--dialect`."""

from a2acli.records import Record


class Dialect(Record):
    """One vendor's deviations (a record, a2acli.records: cheap to define at start-up)."""

    __slots__ = ("name", "summary", "lowercase_v1_enums", "idempotency_header", "v0_list_tasks")
    name: str
    summary: str
    # V1 enum values spelt lowercase ("user", "completed") instead of ProtoJSON names.
    lowercase_v1_enums: bool
    # Header carrying --idempotency-key.
    idempotency_header: str
    # V0 `tasks/list` with limit/offset answering a bare array (no such method in the 0.3 spec).
    v0_list_tasks: bool

    def __init__(
        self,
        name: str,
        summary: str,
        lowercase_v1_enums: bool = False,
        idempotency_header: str = "Idempotency-Key",
        v0_list_tasks: bool = False,
    ) -> None:
        self._set(name, summary, lowercase_v1_enums, idempotency_header, v0_list_tasks)


DIALECTS: dict[str, Dialect] = {
    "spec": Dialect("spec", "the official A2A specification (1.0 and 0.3)"),
    "clix": Dialect(
        "clix",
        "Clix: lowercase V1 enums, X-Clix-Idempotency-Key, V0 tasks/list with limit/offset",
        lowercase_v1_enums=True,
        idempotency_header="X-Clix-Idempotency-Key",
        v0_list_tasks=True,
    ),
}


def get_dialect(name: str) -> Dialect:
    try:
        return DIALECTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown dialect {name!r}: use one of {', '.join(DIALECTS)}") from None
