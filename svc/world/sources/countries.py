"""Country names and codes as the BWF's public files write them, turned into IOC codes.

The match files carry three-letter codes (mostly IOC already); the ranking files carry a
country NAME, sometimes with a federation's name around it ("National Olympic Committee
KENYA"). NAMES maps every spelling seen in those files; `code_of` tries the name, then the
name with a leading three-letter code ("TUN Tunisia"), and returns None for anything else,
which the importer reports. `nationality_code` reads a match file's nationality the same way.
Neither ever makes a code up: what the mapping does not know is an unknown country, never a
new one.
"""

from __future__ import annotations

from functools import lru_cache

from svc.world.generate.ids import fold

# IOC code -> English name, for every nation in the public BWF files.
IOC = {
    "ALG": "Algeria", "ARG": "Argentina", "ARM": "Armenia", "ARU": "Aruba", "AUS": "Australia", "AUT": "Austria",
    "AZE": "Azerbaijan", "BAN": "Bangladesh", "BAR": "Barbados", "BDI": "Burundi", "BEL": "Belgium", "BEN": "Benin",
    "BHU": "Bhutan", "BLR": "Belarus", "BOL": "Bolivia", "BOT": "Botswana", "BRA": "Brazil", "BRN": "Bahrain",
    "BRU": "Brunei", "BUL": "Bulgaria", "BUR": "Burkina Faso", "CAF": "Central African Republic", "CAM": "Cambodia",
    "CAN": "Canada", "CGO": "Congo", "CHI": "Chile", "CHN": "China", "CIV": "Ivory Coast", "CMR": "Cameroon",
    "COD": "DR Congo", "COK": "Cook Islands", "COL": "Colombia", "CRC": "Costa Rica", "CRO": "Croatia", "CUB": "Cuba",
    "CYP": "Cyprus", "CZE": "Czechia", "DEN": "Denmark", "DOM": "Dominican Republic", "ECU": "Ecuador",
    "EGY": "Egypt", "ENG": "England", "ERI": "Eritrea", "ESA": "El Salvador", "ESP": "Spain", "EST": "Estonia",
    "FIJ": "Fiji", "FIN": "Finland", "FLK": "Falkland Islands", "FRA": "France", "FRO": "Faroe Islands",
    "GEQ": "Equatorial Guinea", "GER": "Germany", "GHA": "Ghana", "GRE": "Greece", "GRL": "Greenland", "GUA": "Guatemala",
    "GUF": "French Guiana", "GUM": "Guam", "GUY": "Guyana", "HKG": "Hong Kong", "HUN": "Hungary", "INA": "Indonesia",
    "IND": "India", "IRI": "Iran", "IRL": "Ireland", "IRQ": "Iraq", "ISL": "Iceland", "ISR": "Israel", "ITA": "Italy",
    "JAM": "Jamaica", "JOR": "Jordan", "KUW": "Kuwait", "OMA": "Oman", "SEN": "Senegal", "JPN": "Japan", "KAZ": "Kazakhstan", "KEN": "Kenya", "KOR": "Korea",
    "KSA": "Saudi Arabia", "LAO": "Laos", "LAT": "Latvia", "LES": "Lesotho", "LTU": "Lithuania", "LUX": "Luxembourg",
    "MAC": "Macau", "MAD": "Madagascar", "MAR": "Morocco", "MAS": "Malaysia", "MDA": "Moldova", "MDV": "Maldives",
    "MEX": "Mexico", "MGL": "Mongolia", "MKD": "North Macedonia", "MLT": "Malta", "MNP": "Northern Mariana Islands",
    "MOZ": "Mozambique", "MRI": "Mauritius", "MYA": "Myanmar", "MYT": "Mayotte", "NAM": "Namibia", "NCL": "New Caledonia",
    "NED": "Netherlands", "NEP": "Nepal", "NGR": "Nigeria", "NIG": "Niger", "NOR": "Norway", "NZL": "New Zealand",
    "PAK": "Pakistan", "PAN": "Panama", "PAR": "Paraguay", "PER": "Peru", "PHI": "Philippines", "POL": "Poland",
    "POR": "Portugal", "PUR": "Puerto Rico", "PYF": "Tahiti", "REU": "Réunion", "ROU": "Romania", "RSA": "South Africa",
    "RUS": "Russia", "SCO": "Scotland", "SEY": "Seychelles", "SGP": "Singapore", "SLO": "Slovenia", "SRB": "Serbia",
    "SRI": "Sri Lanka", "SUI": "Switzerland", "SUR": "Suriname", "SVK": "Slovakia", "SWE": "Sweden", "SYR": "Syria",
    "THA": "Thailand", "TGA": "Tonga", "TJK": "Tajikistan", "TLS": "Timor-Leste", "TOG": "Togo", "TPE": "Chinese Taipei",
    "TTO": "Trinidad and Tobago", "TUN": "Tunisia", "TUR": "Türkiye", "UAE": "United Arab Emirates", "UGA": "Uganda",
    "UKR": "Ukraine", "USA": "United States", "UZB": "Uzbekistan", "VEN": "Venezuela", "VIE": "Vietnam", "WAL": "Wales",
    "ZAM": "Zambia", "ZIM": "Zimbabwe",
}


def _fold(text: str) -> str:
    return " ".join(fold(text).replace("&", " and ").replace(".", " ").split())


# Spellings of the ranking files (folded) that are not IOC's English names.
_ALIASES = {
    "hong kong china": "HKG", "macau china": "MAC", "korea": "KOR", "u s a": "USA", "usa": "USA",
    "czech republic": "CZE", "brunei darussalam": "BRU", "lao": "LAO", "syrian arab republic": "SYR",
    "losotho": "LES", "macedonia": "MKD", "east timor": "TLS", "trinidad and tobago": "TTO", "turkiye": "TUR",
    "turkey": "TUR", "democratic republic of congo": "COD", "northern marianas": "MNP", "ivory coast": "CIV",
    "french guyana": "GUF", "ligue nouvelle badminton reunion": "REU", "national olympic committee kenya": "KEN",
    "guam national badminton federation": "GUM", "togo badminton association": "TOG",
    "niger federation nigerienne de badminton": "NIG", "bol federacion boliviana de badminton": "BOL",
    "morocco independent": "MAR", "tahiti": "PYF",
}
NAMES = {_fold(name): code for code, name in IOC.items()} | _ALIASES


# 163 spellings in the shipped files, asked some 860,000 times by a full import: each is read once.
@lru_cache(maxsize=None)
def code_of(name: str) -> str | None:
    """The IOC code of a country as the BWF's files write it; None when unknown."""
    folded = _fold(name)
    if folded in NAMES:
        return NAMES[folded]
    head, _, rest = name.strip().partition(" ")
    if len(head) == 3 and head.isupper() and head in IOC:  # "TUN Tunisia", "FGU FRENCH GUIANA" ...
        return head
    if rest and _fold(rest) in NAMES:
        return NAMES[_fold(rest)]
    return None


def nationality_code(written: str) -> str | None:
    """The IOC code of a player's nationality as a match file writes it: a code IOC holds
    ("THA"), else a country name the ranking files' mapping knows ("Thailand"); None when
    unknown ("XYZ") or empty."""
    written = written.strip()
    if written in IOC:
        return written
    return code_of(written) if written else None
