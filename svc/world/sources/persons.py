"""A person of the public BWF files as the importer knows them: one per identity
(svc.world.sources.names), with every spelling seen and the name a ranking list gives them."""

from __future__ import annotations

from collections import Counter

import attrs

from svc.world.sources.names import list_name


@attrs.define
class Person:
    """One person of the files (and of the record): their id, country, spellings and genders."""

    key: str
    id: str
    country: str | None
    spellings: Counter = attrs.field(factory=Counter)  # names as written in match files
    listed: str | None = None  # the name as a ranking list writes it
    genders: Counter = attrs.field(factory=Counter)
    in_matches: bool = False
    from_record: bool = False  # a medallist of the public record the match and ranking files do not hold

    @property
    def name(self) -> str:
        if self.listed:
            return self.listed
        return list_name(self.spellings.most_common(1)[0][0], self.country)
