"""The words and patterns of road-trip prompts (:mod:`.road_prompt` reads with them): numbers in
words, nicknames, keywords that end a place name, state codes and region names, and the compiled
patterns for daily distances, trip lengths, trip types, routes, place words and cues."""

from __future__ import annotations

import re

from .prompt_text import BLANK
from .vocabulary import WORD_NUMBERS


# --------------------------------------------------------------------------- small words
TENS = {"twenty": 20, "thirty": 30}
UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}
NUMBER_WORDS = {**WORD_NUMBERS, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                 "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
                 **TENS}
NUMBER_WORD = (rf"(?:{'|'.join(TENS)})(?:[\s-](?:{'|'.join(UNITS)}))?"
                rf"|{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}")

# Nicknames expanded to the name a gazetteer knows; everything else is kept as typed.
NICKNAMES = {"la": "Los Angeles", "l.a.": "Los Angeles", "sf": "San Francisco",
             "s.f.": "San Francisco", "nyc": "New York", "n.y.c.": "New York",
             "vegas": "Las Vegas", "philly": "Philadelphia", "nola": "New Orleans"}

# Words that end a place name wherever they appear (prepositions, trip verbs, length words).
KEYWORDS = frozenset("""
    to from via and or in on for with without at by into onto through thru until till then
    than but also plus starting start starts leaving leave departing depart returning return
    stopping stop stops along around over visiting visit seeing see taking take following
    follow arriving arrive ending finishing turning back as drive drives driving drove trip
    trips roadtrip road route routes highway hwy interstate day days night nights week weeks
    weekend fortnight max maximum is are was please
""".split())
# Words that cannot begin a place name ("I want to ...", "Heading to ...", "a week ...").
STOPWORDS = KEYWORDS | frozenset("""
    i we my our me us you your it this that these those a an some any let lets let's let’s
    plan planning want wanna need would like love go going head heading get getting make
    help can could should will shall do take kids kid children family next last early late
    mid summer winter autumn holiday holidays vacation vacay one two three four five six
    seven eight nine ten
""".split())
# Lower-case words inside capitalised names: "Landsberg am Lech", "Rothenburg ob der Tauber".
CONNECTORS = frozenset("""
    am an der die das den dem des de del della dei di da do dos du la le les lès sur sous
    upon ob im zum zur of y e en et von van vom
""".split())
US_STATE_CODES = frozenset("""
    AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ
    NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR
""".split())
# What may follow a place after a comma: "Kingman, AZ", "Paris, Texas", "Füssen, Germany".
REGION_NAMES = frozenset(name.casefold() for name in """
    Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia
    |Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland
    |Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada
    |New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma
    |Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah
    |Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|D.C.|USA|U.S.|U.S.A.
    |United States|Canada|Mexico|UK|U.K.|United Kingdom|England|Scotland|Wales|Ireland
    |Germany|Deutschland|Bavaria|Bayern|Austria|Switzerland|France|Italy|Spain|Portugal
    |Netherlands|Belgium|Luxembourg|Denmark|Norway|Sweden|Finland|Poland|Czechia
    |Czech Republic|Hungary|Croatia|Slovenia|Greece""".replace("\n", "").split("|"))
MAX_PLACE_WORDS = 7
MAX_LOWER_WORDS = 4  # an all-lower-case name has no capitals to tell where it ends

# --------------------------------------------------------------------------- patterns
IGNORECASE = re.IGNORECASE

NUM = r"(?P<num>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)"
DIST_UNIT = r"(?P<unit>miles?|mi|kilomet(?:er|re)s?|kms?)"
PER_DAY = r"(?:(?:a|per|each|every)\s+day\b|/\s*day\b|/\s*d\b|daily\b)"
LIMIT = (r"(?:max(?:imum)?\.?|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|under"
          r"|below|less\s+than|limit(?:ed)?\s+(?:to|of)|cap(?:ped)?\s+(?:at|of)|around|about)")
DAILY_PATTERNS = tuple(re.compile(p, IGNORECASE) for p in (
    rf"(?:\b{LIMIT}\s*(?:of\s+)?)?(?<![\w.,]){NUM}\s*{DIST_UNIT}\b\s*"
    rf"(?:(?:of\s+)?driving\s+|drive\s+)?(?:max(?:imum)?\s+)?{PER_DAY}",
    rf"\b(?:daily|per[\s-]day|a[\s-]day)\s+(?:driving\s+|drive\s+|distance\s+|mileage\s+)?"
    rf"(?:limit|max(?:imum)?|cap)\s*(?:of|is|:|=)?\s*{NUM}\s*{DIST_UNIT}\b",
))

LENGTH = re.compile(
    rf"\b(?P<n>[0-9]{{1,4}}|{NUMBER_WORD})[\s-]+(?P<unit>days?|nights?|weeks?)\b"
    r"|\b(?:a\s+|one\s+)?(?P<fortnight>fortnight)\b|\b(?P<long>long)[\s-]+weekend\b", IGNORECASE)

ROUND_TRIP = re.compile(r"\bround[\s-]?trips?\b|\broundtrips?\b|\b(?:there\s+)?and\s+back\b"
                         r"|\bloop(?:\s+trip)?\b", IGNORECASE)
ONE_WAY = re.compile(r"\bone[\s-]?way\b", IGNORECASE)
ROAD_TRIP_WORDS = re.compile(r"\broad[\s-]?trips?\b", IGNORECASE)

# "via <something>" is a route when the something is road-shaped, else a list of stops.
ROUTEISH = re.compile(
    r"(?i:\b(?:route|road|highway|parkway|hwy|interstate|freeway|turnpike|byway|rte|motorway"
    r"|autobahn|strasse|straße)s?\b|\bi-?\s?[0-9]+\b|\bu\.?s\.?[\s-]?[0-9]+\b"
    r"|\b(?:sr|ca|state\s+route)[\s-]?[0-9]+\b)|\bUS\b|\bU\.S\.|\bI-")
VIA = re.compile(r"\bvia\s+", IGNORECASE)
PHRASE_STOP = re.compile(  # where the name after "via" ends; BLANK marks text already read
    rf"[,;:!?()\[\]|{BLANK}]|(?<![A-Z])\.(?=\s|$)"
    r"|\s(?i:to|from|for|starting|leaving|departing|with|then|in|on|stopping|through|and)\s")
# "take the Lincoln Highway", "on Route 9", "along I-80": a road, so it must be a known route.
NAMED_ROAD = re.compile(
    r"\b(?i:along|on|take|taking|drive|driving|follow|following|down|up|via)\s+(?:(?i:the)\s+)?"
    r"(?P<x>(?:[A-Z][\w'’.-]*\s+){1,4}(?:Highway|Parkway|Road|Route|Byway|Turnpike|Freeway"
    r"|Trail|Hwy)\b|(?i:route|highway|hwy|interstate|us|u\.s\.|i|sr|state\s+route)[\s-]?[0-9]+"
    r"\b)")

TOKEN = re.compile(r"(?:[^\W\d_]\.){2,}|(?:St|Ste|Mt|Ft|Pt|Sta)\.|[^\W\d_]+(?:['’-][^\W\d_]+)*")
WORD_TAIL = re.compile(r"[\w'’-]")
GAP = re.compile(r" +")
COMMA = re.compile(r" ?, ?")
TOKEN_START = re.compile(r"(?<![\w'’.-])[^\W\d_]")
ARROW = re.compile(r"\s+to\s+|\s*(?:→|->|=>|⟶|–|—)\s*|\s+-\s+", IGNORECASE)
LIST_SEP = re.compile(r"\s*(?:,\s*(?:and\s+|then\s+|&\s+)?|\s+(?:and|then|&)\s+|\s*&\s*)", IGNORECASE)
VIA_LIST = re.compile(r"\s+via\s+", IGNORECASE)

ORIGIN_CUE = re.compile(
    r"\b(?:from|start(?:ing)?\s+(?:in|at|from|out\s+of)|leaving(?:\s+from)?|leave\s+from"
    r"|depart(?:ing)?(?:\s+from)?|out\s+of|begin(?:ning)?\s+(?:in|at))\s+", IGNORECASE)
TERMINUS_CUE = re.compile(
    r"\b(?:to|end(?:ing)?(?:\s+up)?\s+(?:in|at)|finish(?:ing)?\s+(?:in|at)"
    r"|arriv(?:e|ing)\s+(?:in|at)|as\s+far\s+as)\s+", IGNORECASE)
TURNAROUND_CUE = re.compile(r"\b(?:turn(?:ing)?\s+around|turnaround(?:\s+point)?)\s+(?:is\s+)?"
                             r"(?:in|at)?\s*", IGNORECASE)
RETURN_CUE = re.compile(r"\b(?:return(?:ing)?|com(?:e|ing)\s+back|head(?:ing)?\s+back"
                         r"|driv(?:e|ing)\s+back|back)\s+(?:(?P<home>home)\b|to\s+)", IGNORECASE)
STOP_CUE = re.compile(
    r"\b(?:via|through|thru|passing\s+through|by\s+way\s+of"
    r"|(?:with\s+(?:a\s+|an\s+)?(?:overnight\s+)?)?stops?(?:\s+over)?\s+(?:in|at)"
    r"|stopping(?:\s+over)?\s+(?:in|at|by)|overnight(?:ing)?\s+in|visit(?:ing)?|see(?:ing)?)\s+",
    IGNORECASE)
# "with a rest day in Albuquerque" (one more night), "two nights in Moab" (as many as said)
REST_CUE = re.compile(
    r"\b(?:(?:with\s+)?(?:a\s+|an\s+|one\s+)?(?:rest|lay-?over|down|free)\s+day\s+(?:in|at)"
    r"|(?P<n>two|three|four|2|3|4)\s+nights\s+(?:in|at))\s+", IGNORECASE)
NIGHT_WORDS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
AFTER_STOP_CUE = re.compile(r"\b(?:via|through|thru|stopping\s+(?:in|at|by)|stops?\s+(?:in|at)"
                             r"|overnight(?:ing)?\s+in|visit(?:ing)?|see(?:ing)?)\s+$", IGNORECASE)
