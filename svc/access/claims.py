"""The statement claiming blocks of calls (svc.access.allowances) for many keys at once: the claims
one worker made while its last batch ran (svc.core.batches), in one round trip."""

from __future__ import annotations

import asyncpg
import attrs

from svc.access.caller import Windows
from svc.core.db import Database
from svc.core.sqlfiles import Q

MOST = 256  # claims per statement at most: bounds how long one batch holds its keys' rows locked


@attrs.frozen
class Asked:
    """One claim of a key's calls, as it waits for its batch."""

    digest: bytes
    need_rank: int
    windows: Windows
    old_block: int | None  # the worker's previous block of the key, given back in the same statement
    returned: int  # ... with this many calls unused


async def claim_many(
    db: Database, asked: list[Asked], *, want: int, share: int, holder: str, lease_s: float
) -> list[asyncpg.Record | None]:
    """Each claim's row (None: no such key), from one statement."""
    rows = await db.fetch(
        Q.access.claim_calls_many,
        key_hashes=[a.digest for a in asked],
        need_ranks=[a.need_rank for a in asked],
        minutes=[a.windows.minute for a in asked],
        days=[a.windows.day for a in asked],
        months=[a.windows.month for a in asked],
        old_blocks=[a.old_block for a in asked],
        returned=[a.returned for a in asked],
        want=want,
        share=share,
        holder=holder,
        lease_s=lease_s,
    )
    by_place = {row["ord"]: row for row in rows}
    return [by_place.get(place) for place in range(1, len(asked) + 1)]
