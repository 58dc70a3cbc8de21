"""The learned value of a board in progress, and the bot that plays by it.

A board after a street's placement is worth what it is expected to be worth when finished,
under best play from there (``features`` describe it, ``network`` is the small model that
values it). The models are trained backwards (``labels``): the street before the last from
the exact last street (``optimizer.opponents.exact``), each earlier street from the next
street's model, over sampled deals of the street between. ``positions`` deals the boards
they are trained on; ``rebuild`` is the one resumable command that does it all from a seed.
"""
