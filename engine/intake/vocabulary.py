"""Words the city-prompt parser understands, kept apart from the parsing rules.

Theme entries are regular-expression fragments (``"museums?"``), matched as whole words.
"""

from __future__ import annotations

# Everyday words mapped onto the planner's fixed theme vocabulary.
THEME_WORDS: dict[str, tuple[str, ...]] = {
    "art": ("art", "arts", "museums?", "galler(?:y|ies)", "paintings?", "sculptures?",
            "exhibitions?"),
    "history": ("history", "historic(?:al)?", "ruins", "ancient", "castles?", "monuments?",
                "heritage"),
    "food": ("food", "foodie", "eat", "eating", "cuisine", "restaurants?", "dining", "wine",
             "cafes?", "gastronomy"),
    "outdoor": ("outdoors?", "parks?", "hiking", "hikes?", "nature", "gardens?", "beach(?:es)?"),
    "architecture": ("architecture", "architectural", "buildings", "skyscrapers?"),
    "shopping": ("shopping", "shops", "markets?", "boutiques?"),
    "religion": ("religion", "religious", "churche?s?", "cathedrals?", "temples?", "shrines?",
                 "mosques?", "synagogues?"),
    "science": ("science", "scientific", "technology", "planetarium"),
    "views": ("views?", "viewpoints?", "skyline", "panoram(?:a|as|ic)", "scenic", "lookouts?"),
    "nightlife": ("nightlife", "bars", "clubs", "clubbing", "cocktails"),
    "family": ("family", "families"),
    "music": ("music", "concerts?", "jazz", "opera"),
    "fashion": ("fashion", "designer"),
    "photography": ("photography", "photos?", "photographs?"),
    "culture": ("culture", "cultural", "theat(?:er|re)s?"),
}
THEMES = tuple(THEME_WORDS)

# What a described trip that names no budget is planned with, and said so (issue 32 §6); the
# form's Budget field starts at it too.
DEFAULT_BUDGET_USD = 3000
# The line that says so: one rule for the rules' reading of a prompt and the model's ("Plan with AI").
NO_BUDGET_GIVEN = (f"no budget given: planned with the default budget of ${DEFAULT_BUDGET_USD:,}; "
                   "add e.g. 'budget 2500 USD' to change it")

MONTH_NUMBERS = {name: number for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                      "sunday"})
WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

# "$" and "¥" are shared by several currencies; a travel planner's users mostly mean these.
CURRENCY_SYMBOLS = {"$": "USD", "us$": "USD", "\u20ac": "EUR", "\u00a3": "GBP", "\u00a5": "JPY"}
CURRENCY_NAMES = {"dollar": "USD", "dollars": "USD", "bucks": "USD", "euro": "EUR",
                  "euros": "EUR", "yen": "JPY", "pound": "GBP", "pounds": "GBP"}
# Only listed codes count as money, so airport codes ("JFK") never read as currencies.
CURRENCY_CODES = ("usd", "eur", "gbp", "jpy", "cad", "aud", "chf", "cny", "mxn", "inr", "nzd",
                  "sek", "nok", "dkk", "sgd", "hkd", "krw", "thb")
# Money words for currencies we have no code for: "500 bitcoin" must not read as 500 USD.
UNKNOWN_MONEY_WORDS = ("bitcoins?", "btc", "eth(?:er)?", "crypto", "rupees?", "yuan", "renminbi",
                       "francs?", "pesos?", "baht", "kronor", "kron[ae]", "rubles?", "roubles?",
                       "lira", "liras", "dirhams?", "reais", "shekels?", "zloty", "forints?")
