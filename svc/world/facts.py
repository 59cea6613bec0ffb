"""Static facts the generated world must respect (see ../shared/data/world-facts.md).

Only data and tiny pure lookups live here; the generator decides what to do with them.
Every table is a tuple (never a dict that is iterated for output) so the order of
generated rows never depends on anything but this file.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

# --------------------------------------------------------------------------- nations

# (IOC code, name, continent); how each nation's people are named is in svc/world/naming.py.
COUNTRIES: tuple[tuple[str, str, str], ...] = (
    ("ENG", "England", "EU"), ("SCO", "Scotland", "EU"), ("WAL", "Wales", "EU"),
    ("IRL", "Ireland", "EU"), ("GBR", "Great Britain", "EU"),
    ("DEN", "Denmark", "EU"), ("SWE", "Sweden", "EU"), ("NOR", "Norway", "EU"),
    ("FIN", "Finland", "EU"), ("NED", "Netherlands", "EU"), ("GER", "Germany", "EU"),
    ("AUT", "Austria", "EU"), ("SUI", "Switzerland", "EU"), ("BEL", "Belgium", "EU"),
    ("FRA", "France", "EU"), ("ESP", "Spain", "EU"), ("RUS", "Russia", "EU"),
    ("UKR", "Ukraine", "EU"), ("POL", "Poland", "EU"), ("BUL", "Bulgaria", "EU"),
    ("CZE", "Czechia", "EU"), ("SLO", "Slovenia", "EU"), ("EST", "Estonia", "EU"),
    ("HUN", "Hungary", "EU"), ("ISR", "Israel", "AS"), ("TUR", "Türkiye", "EU"),
    ("AZE", "Azerbaijan", "EU"), ("KAZ", "Kazakhstan", "AS"),
    ("CHN", "China", "AS"), ("TPE", "Chinese Taipei", "AS"), ("HKG", "Hong Kong", "AS"),
    ("MAS", "Malaysia", "AS"), ("SGP", "Singapore", "AS"), ("INA", "Indonesia", "AS"),
    ("THA", "Thailand", "AS"), ("KOR", "Korea", "AS"), ("JPN", "Japan", "AS"),
    ("IND", "India", "AS"), ("VIE", "Vietnam", "AS"), ("PHI", "Philippines", "AS"),
    ("SRI", "Sri Lanka", "AS"), ("PAK", "Pakistan", "AS"), ("BAN", "Bangladesh", "AS"),
    ("NEP", "Nepal", "AS"), ("IRI", "Iran", "AS"), ("UAE", "United Arab Emirates", "AS"),
    ("AUS", "Australia", "OC"), ("NZL", "New Zealand", "OC"),
    ("USA", "United States", "AM"), ("CAN", "Canada", "AM"), ("MEX", "Mexico", "AM"),
    ("GUA", "Guatemala", "AM"), ("PER", "Peru", "AM"), ("BRA", "Brazil", "AM"),
    ("COL", "Colombia", "AM"), ("ECU", "Ecuador", "AM"), ("BOL", "Bolivia", "AM"),
    ("NGR", "Nigeria", "AF"), ("EGY", "Egypt", "AF"), ("RSA", "South Africa", "AF"),
    ("MRI", "Mauritius", "AF"), ("ALG", "Algeria", "AF"), ("UGA", "Uganda", "AF"),
    ("KEN", "Kenya", "AF"), ("ETH", "Ethiopia", "AF"), ("GRE", "Greece", "EU"),
    ("ITA", "Italy", "EU"),
    ("JAM", "Jamaica", "AM"), ("QAT", "Qatar", "AS"),
)
COUNTRY_CONTINENT = {c[0]: c[2] for c in COUNTRIES}

# Nations that compete at the Commonwealth Games (England, Scotland, Wales separately).
COMMONWEALTH = frozenset({"ENG", "SCO", "WAL", "MAS", "SGP", "IND", "CAN", "AUS", "NZL", "NGR", "RSA",
                          "MRI", "UGA", "KEN", "SRI", "PAK", "BAN"})
# Home nations are one team (GBR) only at the Olympics; they are never a team of their own there.
HOME_NATIONS = frozenset({"ENG", "SCO", "WAL"})

# Strength of nations by era, 0..1 (world-facts "Nations and eras"). A nation missing from an
# era's table gets OTHER_NATION_STRENGTH; absent nations (CHN before 1981) get no players.
OTHER_NATION_STRENGTH = 0.12
NATION_ERAS: tuple[tuple[int, int, dict[str, float]], ...] = (
    (1899, 1939, {"ENG": 0.95, "IRL": 0.8, "SCO": 0.75, "WAL": 0.6, "DEN": 0.55, "USA": 0.5, "CAN": 0.45,
                  "NED": 0.25, "FRA": 0.2, "MAS": 0.3}),
    (1940, 1965, {"DEN": 0.95, "MAS": 0.9, "USA": 0.6, "INA": 0.6, "THA": 0.55, "ENG": 0.55, "SWE": 0.35,
                  "CAN": 0.35, "IRL": 0.3, "SCO": 0.3, "JPN": 0.35, "IND": 0.3}),
    (1966, 1980, {"INA": 0.95, "DEN": 0.85, "MAS": 0.75, "ENG": 0.7, "JPN": 0.7, "SWE": 0.6, "THA": 0.4,
                  "IND": 0.4, "USA": 0.3, "NED": 0.3, "CAN": 0.3, "SCO": 0.25}),
    (1981, 2000, {"CHN": 0.98, "INA": 0.9, "KOR": 0.8, "DEN": 0.8, "MAS": 0.7, "SWE": 0.55, "ENG": 0.5,
                  "JPN": 0.45, "NED": 0.4, "THA": 0.35, "HKG": 0.3, "TPE": 0.3, "GER": 0.3, "IND": 0.3}),
    # 2001 on: set so that each real top-12 nation's share of World Tour match appearances in 2018-2020
    # comes within 5 points of the real one (ops/realism; 3.7 points at most on the demo world)
    (2001, 2015, {"CHN": 0.8, "INA": 0.8, "KOR": 0.65, "MAS": 0.75, "DEN": 0.5, "JPN": 0.6, "TPE": 0.65,
                  "IND": 0.6, "ESP": 0.4, "THA": 0.6, "ENG": 0.55, "GER": 0.55, "HKG": 0.55, "SGP": 0.3,
                  "RUS": 0.3, "NED": 0.3}),
    (2016, 2100, {"CHN": 0.75, "JPN": 0.66, "KOR": 0.68, "DEN": 0.5, "INA": 0.7, "IND": 0.72, "TPE": 0.72,
                  "MAS": 0.68, "THA": 0.7, "SGP": 0.4, "CAN": 0.35, "FRA": 0.45, "ESP": 0.4, "ENG": 0.56,
                  "HKG": 0.56, "GER": 0.56, "USA": 0.3, "VIE": 0.3}),
)
# The first year a nation's players may appear: no earlier than the nation existed as a
# badminton nation and its association took part internationally. Sources: world-facts (CHN joins
# the international federation in 1981; the early All England is British and Irish), the years of
# independence or of the national association's founding as the federations' own histories give
# them; where only a decade is known, its end (a later start is harmless, an earlier one is not).
NATION_FROM = {
    # the home nations play from the first All England (1899)
    "ENG": 0, "SCO": 0, "WAL": 0, "IRL": 0,
    # the 1920s-30s: the game spreads to the continent and North America
    "CAN": 1921, "DEN": 1930, "NED": 1931, "FRA": 1934, "IND": 1934, "USA": 1936, "SWE": 1936, "NZL": 1927,
    "AUS": 1935, "MAS": 1934, "RSA": 1935, "NOR": 1938, "BEL": 1946, "SUI": 1957, "AUT": 1957, "FIN": 1953,
    # after the war: new states and new associations
    "PAK": 1953, "SRI": 1950, "PHI": 1952, "THA": 1950, "INA": 1951, "ISR": 1950, "GER": 1953, "HKG": 1960,
    "SGP": 1965, "JPN": 1946, "KOR": 1960, "TPE": 1970, "MEX": 1960, "BRA": 1993, "PER": 1970, "GUA": 1975,
    "COL": 1980, "ECU": 1980, "BOL": 1990, "NGR": 1961, "UGA": 1963, "KEN": 1964, "ALG": 1963, "EGY": 1960,
    "MRI": 1968, "ETH": 1990, "BAN": 1972, "NEP": 1976, "IRI": 1970, "UAE": 1980, "VIE": 1980, "ESP": 1985,
    "ITA": 1970, "GRE": 1990, "TUR": 1990, "POL": 1977, "BUL": 1985, "HUN": 1985,
    "CHN": 1981,
    # the successors of the Soviet Union, Czechoslovakia and Yugoslavia, after the break-ups
    "RUS": 1992, "UKR": 1992, "KAZ": 1992, "EST": 1992, "AZE": 1992, "SLO": 1992, "CZE": 1993,
}
# Nations without players of their own: GBR is the Olympic team of the home nations; Jamaica
# and Qatar are here as hosts of the 1966 Commonwealth and 2006 Asian Games.
NO_PLAYERS = frozenset({"GBR", "JAM", "QAT"})


def nation_strengths(year: int) -> tuple[tuple[str, float], ...]:
    """Every nation with players in `year` and its strength, in COUNTRIES order."""
    year = max(NATION_ERAS[0][0], year)
    table = next(t for a, b, t in NATION_ERAS if a <= year <= b)
    out = []
    for code, _name, _cont in COUNTRIES:
        if code in NO_PLAYERS or NATION_FROM.get(code, 0) > year:
            continue
        out.append((code, table.get(code, OTHER_NATION_STRENGTH)))
    return tuple(out)


# --------------------------------------------------------------------------- places

@dataclass(frozen=True)
class City:
    name: str
    country: str
    elevation_m: int | None
    utc_offset: float  # standard time; daylight saving is ignored on purpose (one offset per city)
    venues: tuple[tuple[str, int | None], ...]  # (venue name, the venue's own elevation or None)


# Host cities with the elevations of world-facts; cities ids are 1-based positions in this tuple.
CITIES: tuple[City, ...] = (
    City("London", "ENG", 11, 0, (("Royal Horticultural Hall", None), ("Wembley Arena", 12),
                                   ("Wembley Arena (Empire Pool)", None))),
    City("Birmingham", "ENG", 140, 0, (("National Indoor Arena", None), ("Utilita Arena Birmingham", 142))),
    City("Glasgow", "SCO", 40, 0, (("Emirates Arena", None), ("Kelvin Hall", None))),
    City("Odense", "DEN", 15, 1, (("Odense Sports Park", None), ("Jyske Bank Arena", 16))),
    City("Copenhagen", "DEN", 14, 1, (("K.B. Hallen", None), ("Brøndby Hallen", None))),
    City("Aarhus", "DEN", 50, 1, (("Ceres Arena", None),)),
    City("Malmö", "SWE", 12, 1, (("Baltiska Hallen", None),)),
    City("Paris", "FRA", 35, 1, (("Stade Pierre de Coubertin", None), ("Adidas Arena", 40),
                                  ("Porte de la Chapelle Arena", None))),
    City("Orléans", "FRA", 100, 1, (("Palais des Sports", None),)),
    City("Mülheim an der Ruhr", "GER", 40, 1, (("innogy Sporthalle", None), ("Westenergie Sporthalle", None))),
    City("Saarbrücken", "GER", 200, 1, (("Saarlandhalle", 205),)),
    City("Basel", "SUI", 260, 1, (("St. Jakobshalle", 262),)),
    City("Vienna", "AUT", 190, 1, (("Stadthalle", None),)),
    City("Madrid", "ESP", 657, 1, (("Palacio de Deportes Carolina Marín", 660),)),
    City("Huelva", "ESP", 54, 1, (("Palacio de Deportes Carolina Marín Huelva", None),)),
    City("Vantaa", "FIN", 50, 2, (("Energia Areena", None),)),
    City("Moscow", "RUS", 156, 3, (("Luzhniki Small Arena", None),)),
    City("Kyiv", "UKR", 179, 2, (("Palace of Sports", None),)),
    City("Sofia", "BUL", 550, 2, (("Arena Armeec", 560),)),
    City("Kuala Lumpur", "MAS", 56, 8, (("Stadium Negara", None), ("Axiata Arena", 60),
                                         ("Putra Indoor Stadium", None))),
    City("Jakarta", "INA", 8, 7, (("Istora Senayan", 9), ("Indonesia Arena", None))),
    City("Singapore", "SGP", 15, 8, (("Singapore Indoor Stadium", None), ("Gay World Stadium", None))),
    City("Bangkok", "THA", 2, 7, (("Nimibutr Stadium", None), ("Indoor Stadium Huamark", 3))),
    City("Tokyo", "JPN", 40, 9, (("Tokyo Metropolitan Gymnasium", None), ("Musashino Forest Sport Plaza", 60))),
    City("Osaka", "JPN", 12, 9, (("Osaka Municipal Central Gymnasium", None),)),
    City("Seoul", "KOR", 38, 9, (("SK Handball Stadium", None), ("Jangchung Arena", 45))),
    City("Taipei", "TPE", 9, 8, (("Taipei Arena", None),)),
    City("Hong Kong", "HKG", 30, 8, (("Hong Kong Coliseum", None), ("Queen Elizabeth Stadium", 20))),
    City("Manila", "PHI", 7, 8, (("Rizal Memorial Coliseum", None),)),
    City("Ho Chi Minh City", "VIE", 19, 7, (("Phu Tho Stadium", None),)),
    City("Beijing", "CHN", 44, 8, (("Beijing University of Technology Gymnasium", None),)),
    City("Shanghai", "CHN", 4, 8, (("Yuanshen Sports Centre", None),)),
    City("Guangzhou", "CHN", 21, 8, (("Tianhe Gymnasium", None),)),
    City("Changzhou", "CHN", 5, 8, (("Olympic Sports Centre Xincheng Gymnasium", None),)),
    City("Fuzhou", "CHN", 84, 8, (("Haixia Olympic Sports Center", None),)),
    City("Nanjing", "CHN", 9, 8, (("Youth Olympic Sports Park", None),)),
    City("Wuhan", "CHN", 37, 8, (("Wuhan Sports Center Gymnasium", None),)),
    City("Kunming", "CHN", 1890, 8, (("Kunming Tuodong Gymnasium", 1895),)),
    City("New Delhi", "IND", 216, 5.5, (("K. D. Jadhav Indoor Hall", None), ("Siri Fort Sports Complex", 220))),
    City("Hyderabad", "IND", 505, 5.5, (("Gachibowli Indoor Stadium", None),)),
    City("Lucknow", "IND", 123, 5.5, (("Babu Banarasi Das Indoor Stadium", None),)),
    City("Guwahati", "IND", 55, 5.5, (("Sarusajai Sports Complex", None),)),
    City("Almaty", "KAZ", 800, 6, (("Baluan Sholak Sports Palace", 780),)),
    City("Tehran", "IRI", 1190, 3.5, (("Azadi Indoor Stadium", None),)),
    City("Sydney", "AUS", 58, 10, (("Sydney Olympic Park Sports Centre", None),)),
    City("Auckland", "NZL", 30, 12, (("Eventfinda Stadium", None),)),
    City("Toronto", "CAN", 76, -5, (("Markham Pan Am Centre", None),)),
    City("Calgary", "CAN", 1045, -7, (("Markin MacPhail Centre", 1100), ("Calgary Winter Club", None))),
    City("Denver", "USA", 1609, -7, (("Denver Coliseum", None),)),
    City("Los Angeles", "USA", 90, -8, (("Pauley Pavilion", None), ("Titan Gym", 50))),
    City("Mexico City", "MEX", 2240, -6, (("Palacio de los Deportes", 2235), ("Centro Deportivo Olímpico", None))),
    City("Guadalajara", "MEX", 1566, -6, (("CODE Dome", None),)),
    City("Lima", "PER", 154, -5, (("Villa Deportiva Nacional", None),)),
    City("Bogotá", "COL", 2640, -5, (("Coliseo El Salitre", 2600),)),
    City("Quito", "ECU", 2850, -5, (("Coliseo General Rumiñahui", None),)),
    City("La Paz", "BOL", 3640, -4, (("Coliseo Julio Borelli", 3600),)),
    City("São Paulo", "BRA", 760, -3, (("Ginásio do Ibirapuera", None),)),
    City("Johannesburg", "RSA", 1753, 2, (("Ellis Park Arena", None),)),
    City("Nairobi", "KEN", 1795, 3, (("Kasarani Indoor Arena", None),)),
    City("Addis Ababa", "ETH", 2355, 3, (("Addis Ababa Arena", None),)),
    City("Kampala", "UGA", 1190, 3, (("Lugogo Arena", None),)),
    City("Cairo", "EGY", 23, 2, (("Cairo Stadium Indoor Halls", None),)),
    City("Lagos", "NGR", 41, 1, (("National Stadium Indoor Hall", None),)),
    City("Almere", "NED", -3, 1, (("Topsportcentrum Almere", None),)),
    City("Barcelona", "ESP", 12, 1, (("Pavelló de la Mar Bella", None),)),
    City("Atlanta", "USA", 320, -5, (("Georgia State University Gymnasium", None),)),
    City("Athens", "GRE", 70, 2, (("Goudi Olympic Hall", None),)),
    City("Rio de Janeiro", "BRA", 5, -3, (("Riocentro Pavilion 4", None),)),
    City("Hiroshima", "JPN", 10, 9, (("Hiroshima Sun Plaza", None),)),
    City("Edinburgh", "SCO", 47, 0, (("Meadowbank Sports Centre", None),)),
    City("Kingston", "JAM", 50, -5, (("National Arena", None),)),
    # hosts of the Thomas, Uber and World Championship finals that hold no other event
    City("Preston", "ENG", 30, 0, (("Preston Public Hall", None),)),
    City("Lytham St Annes", "ENG", 10, 0, (("Lowther Pavilion", None),)),
    City("Philadelphia", "USA", 12, -5, (("The Palestra", None),)),
    City("Wilmington", "USA", 24, -5, (("Wilmington Armory", None),)),
    City("Wellington", "NZL", 20, 12, (("Wellington Town Hall", None),)),
    City("Lausanne", "SUI", 495, 1, (("Malley Sports Centre", None),)),
    City("Seville", "ESP", 7, 1, (("Palacio de Deportes San Pablo", None),)),
    City("Anaheim", "USA", 48, -8, (("Arrowhead Pond", None),)),
    City("Kunshan", "CHN", 4, 8, (("Kunshan Sports Centre", None),)),
    City("Chengdu", "CHN", 500, 8, (("Chengdu Hi-Tech Zone Sports Centre", None),)),
    City("Horsens", "DEN", 20, 1, (("Forum Horsens", None),)),
    City("Bali", "INA", 10, 8, (("Bali International Convention Centre", None),)),
    # hosts of World Tour series that hold no other event
    City("Gwangju", "KOR", 46, 9, (("Gwangju Women's University Universiade Gymnasium", None),)),
    City("Akita", "JPN", 20, 9, (("CNA Arena Akita", None),)),
    # hosts of Sudirman Cup finals
    City("Eindhoven", "NED", 17, 1, (("Indoor Sportcentrum Eindhoven", None),)),
    City("Qingdao", "CHN", 10, 8, (("Qingdao Conson Gymnasium", None),)),
    City("Dongguan", "CHN", 10, 8, (("Dongguan Basketball Centre", None),)),
    City("Gold Coast", "AUS", 10, 10, (("Carrara Sports and Leisure Centre", None),)),
    City("Nanning", "CHN", 80, 8, (("Guangxi Sports Centre Gymnasium", None),)),
    City("Suzhou", "CHN", 5, 8, (("Suzhou Olympic Sports Centre", None),)),
    City("Xiamen", "CHN", 10, 8, (("Xiamen Fenghuang Sports Centre", None),)),
    # hosts of Commonwealth and Asian Games (new cities go last: a city's id is its position)
    City("Christchurch", "NZL", 6, 12, (("Queen Elizabeth II Park", None),)),
    City("Edmonton", "CAN", 645, -7, (("Edmonton Gardens", None),)),
    City("Brisbane", "AUS", 27, 10, (("Chandler Sports Centre", None),)),
    City("Victoria", "CAN", 23, -8, (("University of Victoria Gymnasium", None),)),
    City("Manchester", "ENG", 38, 0, (("Manchester Arena", None),)),
    City("Melbourne", "AUS", 31, 10, (("Melbourne Convention and Exhibition Centre", None),)),
    City("Busan", "KOR", 10, 9, (("Gangseo Gymnasium", None),)),
    City("Doha", "QAT", 10, 3, (("Aspire Hall", None),)),
    City("Incheon", "KOR", 10, 9, (("Gyeyang Gymnasium", None),)),
    City("Hangzhou", "CHN", 19, 8, (("Binjiang Gymnasium", None),)),
    City("Nagoya", "JPN", 15, 9, (("Nagoya Congress Center", None),)),
    # hosts of Super 100 series of 2018-2019
    City("Lingshui", "CHN", 10, 8, (("Lingshui Sports Centre", None),)),
    City("Vladivostok", "RUS", 10, 10, (("Sports Complex Olympic", None),)),
    City("Pangkalpinang", "INA", 10, 7, (("GOR Sahabudin", None),)),
    City("Malang", "INA", 440, 7, (("GOR Ken Arok", None),)),
)
CITY_ID = {c.name: i + 1 for i, c in enumerate(CITIES)}


# --------------------------------------------------------------------------- series

@dataclass(frozen=True)
class Series:
    slug: str
    name: str
    first_year: int
    kind: str            # open | worlds | olympics | team | finals | continental | multi | junior | para
    month: int           # usual month of the edition
    hosts: tuple[tuple[int, tuple[str, ...]], ...]  # (from year, host cities rotating in that era)
    level: str = "senior"
    para: bool = False
    team: bool = False
    medals: bool = False
    bronze_match: bool = False   # a 3P play-off (only the Olympics have one)
    region: str | None = None    # continent code or "CW" (Commonwealth) restricting entries
    days: int = 6
    last_year: int | None = None  # the last edition of a series that ended


WORLD_HOSTS = ("Malmö", "Jakarta", "Copenhagen", "Calgary", "Beijing", "Jakarta", "Copenhagen",
               "Birmingham", "Vienna", "Glasgow", "Kuala Lumpur", "Sofia", "Madrid", "Guangzhou",
               "Hyderabad", "Nanjing", "Basel", "Huelva", "Tokyo", "Copenhagen", "Paris", "Mexico City")
ASIAN_HOSTS = ("Jakarta", "Bangkok", "Tehran", "New Delhi", "Seoul", "Beijing", "Hiroshima", "Kuala Lumpur",
               "Manila", "Guangzhou", "Wuhan", "Ho Chi Minh City", "Taipei", "Almaty")
EUROPE_HOSTS = ("Copenhagen", "Vienna", "Madrid", "Sofia", "Moscow", "Kyiv", "Glasgow", "Almere", "Vantaa",
                "Basel", "Huelva", "Saarbrücken")

SERIES: tuple[Series, ...] = (
    Series("all-england", "All England Open", 1899, "open", 3,
           ((1899, ("London",)), (1994, ("Birmingham",)))),
    Series("denmark-open", "Denmark Open", 1935, "open", 10,
           ((1935, ("Copenhagen", "Aarhus")), (1990, ("Odense",)))),
    Series("malaysia-open", "Malaysia Open", 1937, "open", 1, ((1937, ("Kuala Lumpur",)),)),
    Series("singapore-open", "Singapore Open", 1929, "open", 6, ((1929, ("Singapore",)),)),
    Series("french-open", "French Open", 1909, "open", 10, ((1909, ("Paris",)),)),
    Series("dutch-open", "Dutch Open", 1932, "open", 10, ((1932, ("Almere",)),)),
    Series("german-open", "German Open", 1955, "open", 3,
           ((1955, ("Saarbrücken",)), (1997, ("Mülheim an der Ruhr",)))),
    Series("swiss-open", "Swiss Open", 1955, "open", 3, ((1955, ("Basel",)),)),
    Series("us-open", "US Open", 1954, "open", 6, ((1954, ("Los Angeles", "Denver")),)),
    Series("canada-open", "Canada Open", 1957, "open", 7, ((1957, ("Toronto", "Calgary")),)),
    Series("japan-open", "Japan Open", 1977, "open", 9, ((1977, ("Tokyo",)),)),
    Series("indonesia-open", "Indonesia Open", 1982, "open", 6, ((1982, ("Jakarta",)),)),
    Series("hong-kong-open", "Hong Kong Open", 1982, "open", 9, ((1982, ("Hong Kong",)),)),
    Series("thailand-open", "Thailand Open", 1984, "open", 5, ((1984, ("Bangkok",)),)),
    Series("china-open", "China Open", 1986, "open", 9,
           ((1986, ("Beijing", "Shanghai", "Guangzhou")), (2014, ("Changzhou",)))),
    Series("korea-open", "Korea Open", 1991, "open", 8, ((1991, ("Seoul",)),)),
    Series("india-open", "India Open", 2008, "open", 1, ((2008, ("New Delhi",)),)),
    # The rest of the World Tour of 2018 on (its Super 750 to Super 100 series), from the year
    # they joined it: their earlier years as lower-grade internationals are left out.
    Series("fuzhou-china-open", "Fuzhou China Open", 2018, "open", 11, ((2018, ("Fuzhou",)),)),
    Series("malaysia-masters", "Malaysia Masters", 2018, "open", 1, ((2018, ("Kuala Lumpur",)),)),
    Series("indonesia-masters", "Indonesia Masters", 2018, "open", 1, ((2018, ("Jakarta",)),)),
    Series("thailand-masters", "Thailand Masters", 2018, "open", 1, ((2018, ("Bangkok",)),)),
    Series("chinese-taipei-open", "Chinese Taipei Open", 2018, "open", 9, ((2018, ("Taipei",)),)),
    Series("korea-masters", "Korea Masters", 2018, "open", 11, ((2018, ("Gwangju",)),)),
    Series("syed-modi-international", "Syed Modi International", 2018, "open", 11, ((2018, ("Lucknow",)),)),
    Series("new-zealand-open", "New Zealand Open", 2018, "open", 4, ((2018, ("Auckland",)),)),
    Series("australian-open", "Australian Open", 2018, "open", 6, ((2018, ("Sydney",)),)),
    Series("spain-masters", "Spain Masters", 2018, "open", 2, ((2018, ("Barcelona",)), (2021, ("Huelva",)),
                                                                   (2023, ("Madrid",)))),
    Series("orleans-masters", "Orléans Masters", 2018, "open", 3, ((2018, ("Orléans",)),)),
    Series("saarlorlux-open", "SaarLorLux Open", 2018, "open", 10, ((2018, ("Saarbrücken",)),)),
    Series("vietnam-open", "Vietnam Open", 2018, "open", 9, ((2018, ("Ho Chi Minh City",)),)),
    Series("hyderabad-open", "Hyderabad Open", 2018, "open", 8, ((2018, ("Hyderabad",)),), last_year=2019),
    Series("akita-masters", "Akita Masters", 2018, "open", 7, ((2018, ("Akita",)),), last_year=2019),
    Series("china-masters", "China Masters", 2018, "open", 4, ((2018, ("Lingshui",)),), last_year=2019),
    Series("russian-open", "Russian Open", 2018, "open", 7, ((2018, ("Vladivostok",)),), last_year=2019),
    Series("indonesia-masters-super-100", "Indonesia Masters Super 100", 2018, "open", 9,
           ((2018, ("Pangkalpinang", "Malang")),), last_year=2019),
    Series("world-championships", "World Championships", 1977, "worlds", 8, ((1977, WORLD_HOSTS),),
           medals=True, days=7),
    Series("olympic-games", "Olympic Games", 1992, "olympics", 7,
           ((1992, ("Barcelona", "Atlanta", "Sydney", "Athens", "Beijing", "London", "Rio de Janeiro",
                    "Tokyo", "Paris", "Los Angeles")),), medals=True, bronze_match=True, days=9),
    Series("thomas-cup", "Thomas Cup", 1949, "team", 5,
           ((1949, ("Glasgow", "Singapore", "Jakarta", "Tokyo", "Kuala Lumpur", "Copenhagen", "Jakarta",
                    "Bangkok", "London", "Beijing", "Hong Kong", "Guangzhou", "Kuala Lumpur", "Jakarta",
                    "Wuhan", "New Delhi", "Kunming", "Aarhus", "Bangkok", "Bangkok")),),
           team=True, days=8),
    Series("uber-cup", "Uber Cup", 1957, "team", 5,
           ((1957, ("Glasgow", "Singapore", "Tokyo", "Kuala Lumpur", "Jakarta", "Bangkok", "Copenhagen",
                    "Hong Kong", "Guangzhou", "Wuhan", "Kunming", "Aarhus")),), team=True, days=8),
    Series("sudirman-cup", "Sudirman Cup", 1989, "team", 5,
           ((1989, ("Jakarta", "Copenhagen", "Birmingham", "Basel", "Glasgow",
                    "Almere", "Beijing", "Guangzhou", "Kuala Lumpur", "Nanjing",
                    "Sydney", "Vantaa", "Fuzhou")),), team=True, days=8),
    Series("world-tour-finals", "World Tour Finals", 2008, "finals", 12,
           ((2008, ("Kuala Lumpur", "Jakarta", "Hong Kong", "Guangzhou", "Bangkok")),), days=5),
    Series("european-championships", "European Championships", 1968, "continental", 4,
           ((1968, EUROPE_HOSTS),), medals=True, region="EU"),
    Series("asian-championships", "Asian Championships", 1962, "continental", 4,
           ((1962, ASIAN_HOSTS),), medals=True, region="AS"),
    Series("commonwealth-games", "Commonwealth Games", 1966, "multi", 8,
           ((1966, ("Kingston", "Edinburgh", "Auckland", "Edinburgh", "Kuala Lumpur", "Birmingham",
                    "Glasgow", "New Delhi", "Sydney")),), medals=True, region="CW", days=8),
    Series("asian-games", "Asian Games", 1962, "multi", 9, ((1962, ASIAN_HOSTS),), medals=True,
           region="AS", days=8),
    Series("world-junior-championships", "World Junior Championships", 1992, "junior", 10,
           ((1992, ("Jakarta", "Lima", "Kuala Lumpur", "Bogotá", "Guadalajara", "Taipei", "Vantaa",
                    "Kunming", "Almaty", "Quito")),), level="junior", medals=True, days=7),
    Series("para-world-championships", "Para Badminton World Championships", 1998, "para", 11,
           ((1998, ("Almere", "Madrid", "Seoul", "Tokyo", "Basel", "Lima", "Huelva",
                    "Nairobi", "Kampala")),), para=True, medals=True, days=6),
    Series("paralympic-games", "Paralympic Games", 2020, "para", 9,
           ((2020, ("Tokyo", "Paris", "Los Angeles")),), para=True, medals=True, days=6),
)
SERIES_BY_SLUG = {s.slug: s for s in SERIES}

# Hosts as they were, by edition year (the label year: Tokyo 2020 was played in 2021). Sources:
# the BWF's lists of World Championships, Thomas, Uber and Sudirman Cup finals, the IOC's list of
# Olympic Games, the Commonwealth Games Federation's and the Olympic Council of Asia's lists of
# Games; the 2020-21 moves from the BWF calendars of those years. Years not listed
# (editions still to be awarded) rotate through the series' host pool.
HOSTS: dict[str, dict[int, str]] = {
    "olympic-games": {1992: "Barcelona", 1996: "Atlanta", 2000: "Sydney", 2004: "Athens", 2008: "Beijing",
                      2012: "London", 2016: "Rio de Janeiro", 2020: "Tokyo", 2024: "Paris", 2028: "Los Angeles"},
    "world-championships": {
        1977: "Malmö", 1980: "Jakarta", 1983: "Copenhagen", 1985: "Calgary", 1987: "Beijing", 1989: "Jakarta",
        1991: "Copenhagen", 1993: "Birmingham", 1995: "Lausanne", 1997: "Glasgow", 1999: "Copenhagen",
        2001: "Seville", 2003: "Birmingham", 2005: "Anaheim", 2006: "Madrid", 2007: "Kuala Lumpur",
        2009: "Hyderabad", 2010: "Paris", 2011: "London", 2013: "Guangzhou", 2014: "Copenhagen",
        2015: "Jakarta", 2017: "Glasgow", 2018: "Nanjing", 2019: "Basel", 2021: "Huelva", 2022: "Tokyo",
        2023: "Copenhagen", 2025: "Paris", 2026: "New Delhi"},
    "thomas-cup": {
        1949: "Preston", 1952: "Singapore", 1955: "Singapore", 1958: "Singapore", 1961: "Jakarta", 1964: "Tokyo",
        1967: "Jakarta", 1970: "Kuala Lumpur", 1973: "Jakarta", 1976: "Bangkok", 1979: "Jakarta", 1982: "London",
        1984: "Kuala Lumpur", 1986: "Jakarta", 1988: "Kuala Lumpur", 1990: "Tokyo", 1992: "Kuala Lumpur",
        1994: "Jakarta", 1996: "Hong Kong", 1998: "Hong Kong", 2000: "Kuala Lumpur", 2002: "Guangzhou",
        2004: "Jakarta", 2006: "Tokyo", 2008: "Jakarta", 2010: "Kuala Lumpur", 2012: "Wuhan", 2014: "New Delhi",
        2016: "Kunshan", 2018: "Bangkok", 2020: "Aarhus", 2022: "Bangkok", 2024: "Chengdu", 2026: "Horsens"},
    "uber-cup": {1957: "Lytham St Annes", 1960: "Philadelphia", 1963: "Wilmington", 1966: "Wellington",
                 1969: "Tokyo", 1972: "Tokyo", 1975: "Jakarta", 1978: "Auckland", 1981: "Tokyo"},
    "sudirman-cup": {1989: "Jakarta", 1991: "Copenhagen", 1993: "Birmingham", 1995: "Lausanne", 1997: "Glasgow",
                     1999: "Copenhagen", 2001: "Seville", 2003: "Eindhoven", 2005: "Beijing", 2007: "Glasgow",
                     2009: "Guangzhou", 2011: "Qingdao", 2013: "Kuala Lumpur", 2015: "Dongguan", 2017: "Gold Coast",
                     2019: "Nanning", 2021: "Vantaa", 2023: "Suzhou", 2025: "Xiamen"},
    "commonwealth-games": {1966: "Kingston", 1970: "Edinburgh", 1974: "Christchurch", 1978: "Edmonton",
                           1982: "Brisbane", 1986: "Edinburgh", 1990: "Auckland", 1994: "Victoria",
                           1998: "Kuala Lumpur", 2002: "Manchester", 2006: "Melbourne", 2010: "New Delhi",
                           2014: "Glasgow", 2018: "Gold Coast", 2022: "Birmingham"},
    "asian-games": {1962: "Jakarta", 1966: "Bangkok", 1970: "Bangkok", 1974: "Tehran", 1978: "Bangkok",
                    1982: "New Delhi", 1986: "Seoul", 1990: "Beijing", 1994: "Hiroshima", 1998: "Bangkok",
                    2002: "Busan", 2006: "Doha", 2010: "Guangzhou", 2014: "Incheon", 2018: "Jakarta",
                    2022: "Hangzhou", 2026: "Nagoya"},
    "european-championships": {2020: "Kyiv"},
    "indonesia-masters-super-100": {2018: "Pangkalpinang", 2019: "Malang"},
    "indonesia-open": {2021: "Bali"},
    "indonesia-masters": {2021: "Bali"},
    "world-tour-finals": {2020: "Bangkok", 2021: "Bali"},
}
# Series held together with another from a year on: the same host and the same days.
HELD_WITH = {"uber-cup": ("thomas-cup", 1984)}


def host_of(series: Series, year: int) -> str | None:
    """The host on record for this edition, if any (HOSTS, or the series it is held with)."""
    with_slug, since = HELD_WITH.get(series.slug, (None, 0))
    if with_slug is not None and year >= since:
        return HOSTS.get(with_slug, {}).get(year)
    return HOSTS.get(series.slug, {}).get(year)


def dates_key(series: Series, year: int) -> str:
    """The series whose random stream sets this edition's dates (the partner it is held with)."""
    with_slug, since = HELD_WITH.get(series.slug, (None, 0))
    return with_slug if with_slug is not None and year >= since else series.slug


def host_pool(series: Series, year: int) -> tuple[str, ...]:
    pool = series.hosts[0][1]
    for start, cities in series.hosts:
        if year >= start:
            pool = cities
    return tuple(c for c in pool if c in CITY_ID)


def _every(first: int, step: int, last: int) -> list[int]:
    return list(range(first, last + 1, step))


def edition_years(series: Series, last_year: int) -> list[int]:
    """The years with an edition, from world-facts' rhythm and gaps."""
    s = series.slug
    wars = set(range(1915, 1920)) | set(range(1940, 1947))
    if s == "all-england":
        return [y for y in range(1899, last_year + 1) if y not in wars]
    if s == "malaysia-open":
        gaps = set(range(1942, 1947)) | set(range(1969, 1983))
        return [y for y in range(1937, last_year + 1) if y not in gaps and (s, y) not in CANCELLED]
    if s == "world-championships":
        years = [1977, 1980, 1983] + _every(1985, 2, 2005) + _every(2006, 1, last_year)
        return [y for y in years if y <= last_year and y not in (2008, 2012, 2016, 2020, 2024, 2028)]
    if s == "olympic-games":
        return _every(1992, 4, last_year)
    if s == "paralympic-games":
        return _every(2020, 4, last_year)
    if s == "thomas-cup":
        return [y for y in _every(1949, 3, 1982) + _every(1984, 2, last_year) if y <= last_year]
    if s == "uber-cup":
        return [y for y in _every(1957, 3, 1981) + _every(1984, 2, last_year) if y <= last_year]
    if s == "sudirman-cup":
        return _every(1989, 2, last_year)
    if s == "european-championships":
        return _every(1968, 2, last_year)
    if s == "asian-championships":
        irregular = [1962, 1965, 1969, 1971, 1976, 1983, 1985, 1987, 1988, 1989, 1991, 1992]
        return [y for y in irregular + _every(1994, 1, last_year) if y <= last_year and (s, y) not in CANCELLED]
    if s in ("commonwealth-games", "asian-games"):
        return [y for y in _every(series.first_year, 4, last_year) if (s, y) not in CANCELLED]
    if s == "world-junior-championships":
        return [y for y in _every(1992, 1, last_year) if (s, y) not in CANCELLED]
    if s == "para-world-championships":
        return [y for y in [1998] + _every(2001, 2, 2019) + _every(2022, 2, last_year) if y <= last_year]
    if s == "world-tour-finals":
        return _every(2008, 1, last_year)
    # national opens: yearly, paused in the world wars and by the pandemic (CANCELLED), until the last
    last_year = min(last_year, series.last_year or last_year)
    return [y for y in range(series.first_year, last_year + 1) if y not in wars and (s, y) not in CANCELLED]


# The pandemic: the tour stopped after the All England in March 2020 and came back with the
# Denmark Open in October; of 2021's Asian leg only the January Bangkok events and the
# November Bali events were played; China and Hong Kong held nothing until 2023. Source: the
# BWF tournament calendars 2020-2022 (and the World Tour matches of 2020 in the real data).
CANCELLED = frozenset(
    {(s, 2020) for s in ("malaysia-open", "singapore-open", "french-open", "dutch-open", "german-open",
                         "swiss-open", "us-open", "canada-open", "japan-open", "indonesia-open", "hong-kong-open",
                         "thailand-open", "china-open", "korea-open", "india-open", "asian-championships",
                         "world-junior-championships")}
    | {(s, 2021) for s in ("malaysia-open", "singapore-open", "german-open", "us-open", "canada-open",
                           "japan-open", "hong-kong-open", "china-open", "korea-open", "india-open",
                           "asian-championships", "world-junior-championships")}
    | {(s, 2020) for s in ("fuzhou-china-open", "chinese-taipei-open", "korea-masters", "syed-modi-international",
                         "new-zealand-open", "australian-open", "orleans-masters", "vietnam-open")}
    | {(s, 2021) for s in ("fuzhou-china-open", "malaysia-masters", "thailand-masters", "chinese-taipei-open",
                           "korea-masters", "syed-modi-international", "new-zealand-open", "australian-open",
                           "vietnam-open", "saarlorlux-open")}
    | {(s, 2022) for s in ("china-open", "hong-kong-open", "fuzhou-china-open", "new-zealand-open",
                           "thailand-masters")}
    # not the pandemic: Glasgow's Commonwealth Games of 2026 left badminton out of their programme
    | {("commonwealth-games", 2026)})

# Editions played a year after their label (Tokyo 2020 in 2021).
PLAYED_LATE = {("olympic-games", 2020): 2021, ("paralympic-games", 2020): 2021, ("asian-games", 2022): 2023,
               ("thomas-cup", 2020): 2021, ("uber-cup", 2020): 2021, ("world-tour-finals", 2020): 2021,
               ("european-championships", 2020): 2021}
# Editions played in another month than their series' usual one (the 2020-21 moves).
PLAYED_IN_MONTH = {("thomas-cup", 2020): 10, ("uber-cup", 2020): 10, ("world-tour-finals", 2020): 1,
                   ("thailand-open", 2021): 1, ("indonesia-open", 2021): 11, ("sudirman-cup", 2021): 9,
                   ("world-championships", 2021): 12, ("indonesia-masters", 2021): 11, ("spain-masters", 2021): 5}

# --------------------------------------------------------------------------- tiers and money

# BWF World Tour levels from 2018 (world-facts), by series; changes over time as (from year, tier).
WORLD_TOUR_TIER: dict[str, tuple[tuple[int, str], ...]] = {
    "all-england": ((2018, "Super 1000"),),
    "indonesia-open": ((2018, "Super 1000"),),
    "china-open": ((2018, "Super 1000"),),
    "malaysia-open": ((2018, "Super 750"), (2023, "Super 1000")),
    "denmark-open": ((2018, "Super 750"),),
    "french-open": ((2018, "Super 750"),),
    "japan-open": ((2018, "Super 750"),),
    "singapore-open": ((2018, "Super 500"), (2023, "Super 750")),
    "india-open": ((2018, "Super 500"), (2023, "Super 750")),
    "korea-open": ((2018, "Super 500"),),
    "hong-kong-open": ((2018, "Super 500"),),
    "thailand-open": ((2018, "Super 500"),),
    "canada-open": ((2018, "Super 100"), (2023, "Super 500")),
    "german-open": ((2018, "Super 300"),),
    "swiss-open": ((2018, "Super 300"),),
    "us-open": ((2018, "Super 300"),),
    "dutch-open": ((2018, "Super 100"),),
    "fuzhou-china-open": ((2018, "Super 750"),),
    "malaysia-masters": ((2018, "Super 500"),),
    "indonesia-masters": ((2018, "Super 500"),),
    "thailand-masters": ((2018, "Super 300"),),
    "chinese-taipei-open": ((2018, "Super 300"),),
    "korea-masters": ((2018, "Super 300"),),
    "syed-modi-international": ((2018, "Super 300"),),
    "new-zealand-open": ((2018, "Super 300"),),
    "australian-open": ((2018, "Super 300"), (2022, "Super 500")),
    "spain-masters": ((2018, "Super 300"),),
    "orleans-masters": ((2018, "Super 100"), (2022, "Super 300")),
    "saarlorlux-open": ((2018, "Super 100"),),
    "vietnam-open": ((2018, "Super 100"),),
    "hyderabad-open": ((2018, "Super 100"),),
    "akita-masters": ((2018, "Super 100"),),
    "china-masters": ((2018, "Super 100"),),
    "russian-open": ((2018, "Super 100"),),
    "indonesia-masters-super-100": ((2018, "Super 100"),),
}
SUPERSERIES = {"all-england", "denmark-open", "malaysia-open", "singapore-open", "french-open", "japan-open",
               "indonesia-open", "hong-kong-open", "china-open", "korea-open"}
SUPERSERIES_PREMIER = {"all-england", "denmark-open", "malaysia-open", "indonesia-open", "china-open",
                       "korea-open"}


def tier(series: Series, year: int) -> str | None:
    if series.kind == "finals":
        return "Superseries Finals" if year < 2018 else "World Tour Finals"
    if series.kind != "open":
        return None
    if year >= 2018:
        t = None
        for start, name in WORLD_TOUR_TIER.get(series.slug, ()):
            if year >= start:
                t = name
        return t
    if year >= 2007:
        if series.slug == "swiss-open" and year <= 2010:
            return "Superseries"
        if series.slug == "india-open" and year >= 2011:
            return "Superseries"
        if series.slug in SUPERSERIES:
            return "Superseries Premier" if year >= 2011 and series.slug in SUPERSERIES_PREMIER else "Superseries"
        return "Grand Prix Gold"
    if year >= 1983:
        return "Grand Prix"
    return None


# Prize money in USD by tier (world-facts: about 1.25 M for Super 1000 from 2023 ...).
PRIZE_BY_TIER = {"Super 1000": 1_000_000, "Super 750": 700_000, "Super 500": 350_000, "Super 300": 150_000,
                 "Super 100": 75_000, "Superseries Premier": 400_000, "Superseries": 250_000,
                 "Grand Prix Gold": 120_000, "Grand Prix": 60_000, "World Tour Finals": 1_500_000,
                 "Superseries Finals": 500_000,
                 # the invented lower tiers of the full scale
                 "International": 20_000, "International Challenge": 15_000, "International Series": 8_000,
                 "Future Series": 5_000}
OPEN_ERA_FROM = 1979  # no prize money before the open era of the late 1970s


def prize_money(series: Series, year: int, tier_name: str | None) -> int | None:
    if series.team or series.kind in ("olympics", "multi", "junior", "para", "continental"):
        return None
    if year < OPEN_ERA_FROM:
        return None
    if series.kind == "worlds":
        return None if year < 2014 else 1_500_000
    if tier_name is None:
        base = 25_000 if year < 1990 else 80_000
        return base
    base = PRIZE_BY_TIER[tier_name]
    if year >= 2023:  # the 2023 rise (Super 1000 to 1.25 M, Super 750 to 850 k)
        base = int(base * (1.25 if tier_name == "Super 1000" else 1.2))
    return base


# --------------------------------------------------------------------------- para

SPORT_CLASSES = ("WH1", "WH2", "SL3", "SL4", "SU5", "SH6")
# Para events (discipline, sport class or class pair); doubles may pair classes (world-facts).
PARA_EVENTS: tuple[tuple[str, str], ...] = (
    ("MS", "WH1"), ("MS", "WH2"), ("MS", "SL3"), ("MS", "SL4"), ("MS", "SU5"), ("MS", "SH6"),
    ("WS", "WH1"), ("WS", "WH2"), ("WS", "SL4"), ("WS", "SU5"), ("WS", "SH6"),
    ("MD", "WH1-WH2"), ("MD", "SL3-SL4"), ("WD", "WH1-WH2"), ("WD", "SL3-SU5"),
    ("XD", "WH1-WH2"), ("XD", "SL3-SU5"), ("XD", "SH6"),
)


def week_tuesday(day: dt.date) -> dt.date:
    """The Tuesday of the week (Monday..Sunday) containing `day`."""
    return day - dt.timedelta(days=day.weekday()) + dt.timedelta(days=1)
