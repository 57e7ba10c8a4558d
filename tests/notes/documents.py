"""Test documents: a long Paris guide whose chunks each keep to one subject."""

from __future__ import annotations

HOURS_SENTENCE = "The Eiffel Tower hours are 09:30 to 23:45 every day, with the last lift up at 22:45."

TOPICS = {
    "eiffel": [HOURS_SENTENCE,
               "Eiffel Tower hours in summer run later, and the Eiffel Tower summit closes before the lower floors.",
               "Check the Eiffel Tower hours on the day, because strikes and wind can close the Eiffel Tower top.",
               "The Eiffel Tower lifts queue longest at sunset, so the Eiffel Tower hours after ten are calmer."],
    "food": ["Bakeries sell the best croissants before nine in the morning.",
             "A prix fixe lunch menu costs far less than the same dishes at dinner.",
             "Cheese shops will vacuum pack a wedge for the flight home if you ask.",
             "Street markets close around one in the afternoon, so shop for a picnic early."],
    "metro": ["The metro map has fourteen lines and two short shuttle lines.",
              "Line 1 is automatic and runs every two minutes at rush hour.",
              "Keep your ticket until you leave the station, inspectors check at the exits.",
              "Station corridors at Châtelet are long, so allow ten minutes to change lines."],
    "parks": ["The Luxembourg garden has green chairs you can move anywhere.",
              "Model sailboats can be rented at the octagonal pond for children.",
              "The Buttes-Chaumont park has a temple on a cliff above a lake.",
              "Lawns are sometimes closed in winter to let the grass recover."],
    "shopping": ["Department stores refund sales tax to visitors from outside Europe.",
                 "The big winter sales start in January and summer sales in late June.",
                 "Flea markets at Saint-Ouen open on weekends and Mondays.",
                 "Small boutiques often close on Sunday and Monday mornings."],
}


def topic_text(topic: str, tokens: int) -> str:
    """Sentences of one topic, repeated in turn until about ``tokens`` cl100k tokens."""
    from engine.notes.tokens import count_tokens

    out, i = [], 0
    while count_tokens(" ".join(out)) < tokens:
        out.append(TOPICS[topic][i % len(TOPICS[topic])])
        i += 1
    return " ".join(out)


def paris_guide() -> str:
    """About 5,000 tokens in five topical sections of ~1,000 tokens each."""
    return "\n\n".join(topic_text(t, 1000) for t in ("food", "eiffel", "metro", "parks", "shopping"))
