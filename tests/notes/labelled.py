"""A labelled set for notes search (issue 24): a traveller's notes, and questions asked the way a
person asks them — phrased unlike the notes, with typos, with or without accents — each with the
words that identify the passage answering it, or None when the notes do not answer it (Tripwright's
own notes are there too, as for any org). Used by tests/store/test_notes_meaning.py and by
bench/notes_calibration.py to calibrate each model's threshold.
"""

from __future__ import annotations

LOUVRE_ADVICE = "Use the Porte des Lions entrance on the river side instead"

NOTES = {
    "paris": ("My Paris tips", """# My Paris tips

## Louvre

Use the Porte des Lions entrance on the river side instead of the pyramid. The queue at the glass
pyramid was over an hour when we went in May, and the lions' door took ten minutes.

## Food

The bakery on rue Cler sells the best croissants before nine; by ten the butter ones are gone.

For dinner, Le Comptoir du Relais takes no bookings at lunch, so arrive at noon sharp.

## Montmartre

Pickpockets work the steps below Sacré-Cœur; keep your phone zipped away and ignore the string-bracelet sellers.
"""),
    "barcelona": ("Barcelona from Marta", """# Barcelona from Marta

## Sagrada Família

Tickets for the Sagrada Família sell out days ahead in summer: buy them online with a tower slot.
The Passion façade tower has the better view of the sea; the lift takes you up and you walk down.

## Beaches

Barceloneta beach is crowded and thefts are common; Bogatell, further north, is calmer.

## Eating

Tapas bars in the Gothic Quarter near the cathedral are tourist traps; walk to Poble-sec and try
Carrer de Blai, where each pintxo is one or two euros.
"""),
    "rome": ("Rome tips", """# Rome tips

## Vatican

The Vatican Museums are free on the last Sunday of the month, but the line then starts at 6 am;
a paid early-entry ticket at 7:30 is worth it. Shoulders and knees must be covered for St Peter's.

## Colosseum

The Colosseum ticket also covers the Roman Forum and the Palatine Hill, valid for 24 hours, so
see the Palatine first in the cool morning.

## Water

The fountains called nasoni give cold drinking water all day; block the spout with a finger and
drink from the hole on top.
"""),
    "tokyo": ("Tokyo notes", """# Tokyo notes

## Tsukiji

The outer market at Tsukiji still sells grilled scallops and tamagoyaki from 7 am; most stalls
close by 2 pm and many shut on Wednesdays.

## Trains

Get a Suica card at the airport and top it up with cash; it works on every train, bus and in
convenience stores. Avoid the Yamanote line between 8 and 9 am, the carriages are packed.

## Shrines

At Meiji Jingu, bow once at the torii gate; the inner garden with the iris beds opens in June
and costs 500 yen.
"""),
}

# (destination, question, words of the answering passage or None: the notes do not answer)
QUESTIONS = [
    ("paris", "Which Louvre entrance avoids the queue?", "Porte des Lions"),
    ("paris", "How do I skip the line at the Louvre?", "Porte des Lions"),
    ("paris", "Louvre entrance without the long wait", "Porte des Lions"),
    ("paris", "Where to buy croisants in the morning?", "rue Cler"),
    ("paris", "Is Sacre Coeur safe from thieves?", "Pickpockets"),
    ("paris", "Can I reserve a table at Le Comptoir for lunch?", "Comptoir du Relais"),
    ("paris", "Where can I rent a bicycle?", None),
    ("paris", "What is the best jazz club?", None),
    ("paris", "Is there a dress code at the opera?", None),
    ("barcelona", "Sagrada Familia tickets", "sell out days ahead"),
    ("barcelona", "How far ahead should I book the Sagrada Família?", "sell out days ahead"),
    ("barcelona", "Which Sagrada Familia tower has the best view?", "Passion façade"),
    ("barcelona", "Cheap tapas away from the tourists", "Carrer de Blai"),
    ("barcelona", "Which beach is quieter?", "Bogatell"),
    ("barcelona", "When does Park Güell open?", None),
    ("barcelona", "Is the Picasso museum free on Sundays?", None),
    ("rome", "Vatican museums dress code", "covered"),
    ("rome", "Is the Vaticn free on some days?", "last Sunday"),
    ("rome", "Does the Colosseum ticket include the Forum?", "Roman Forum"),
    ("rome", "Where can I drink water for free?", "nasoni"),
    ("rome", "Best gelato near the Pantheon?", None),
    ("rome", "Is there a night bus to the airport?", None),
    ("tokyo", "When does the Tsukiji fish market close?", "close by"),
    ("tokyo", "Which transport card should I buy?", "Suica"),
    ("tokyo", "What time are trains most crowded?", "Yamanote"),
    ("tokyo", "How much is the Meiji shrine garden?", "500 yen"),
    ("tokyo", "Where can I see sumo wrestling?", None),
    ("tokyo", "Best ramen in Shinjuku?", None),
]

# Questions not used to choose any threshold: bench/notes_calibration.py reports them apart, so the
# figures say how the calibrated threshold does on questions it was not tuned on.
HELD_OUT = [
    ("paris", "Is there a quicker way into the Louvre than the pyramid?", "Porte des Lions"),
    ("paris", "Which door of the Louvre has a short line?", "Porte des Lions"),
    ("paris", "Where is a good bakery for breakfast?", "rue Cler"),
    ("paris", "Are there pickpockets in Montmartre?", "Pickpockets"),
    ("paris", "Do I need to book the Comptoir du Relais?", "Comptoir du Relais"),
    ("paris", "Where can I go ice skating?", None),
    ("barcelona", "Is Barceloneta beach safe?", "Barceloneta"),
    ("barcelona", "Where to eat pintxos cheaply?", "Carrer de Blai"),
    ("barcelona", "Do Sagrada Familia tickets sell out?", "sell out days ahead"),
    ("barcelona", "What is the best flamenco show?", None),
    ("rome", "Can I drink from the street fountains?", "nasoni"),
    ("rome", "Do I need to cover my shoulders in St Peter's?", "covered"),
    ("rome", "Which ticket covers the Palatine Hill?", "Palatine"),
    ("rome", "Where is the best pizza in Trastevere?", None),
    ("tokyo", "Is the Tsukiji market open on Wednesday?", "Wednesdays"),
    ("tokyo", "Can I pay for the subway with a card?", "Suica"),
    ("tokyo", "When do the irises bloom at Meiji Jingu?", "iris"),
    ("tokyo", "Where can I buy a kimono?", None),
]
