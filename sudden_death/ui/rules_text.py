"""How to play, in short sections a listener can step through one at a time.

Our own wording of the rules (the seed and SPEC are the authority); each section is a few
sentences so that nobody has to hold a whole page in their head.
"""

from __future__ import annotations

RULES: tuple[tuple[str, str], ...] = (
    ("The idea",
     "You coach one football team against the computer. Each team gets the ball once, for one "
     "drive. Whoever has more points after both drives wins; equal points are a tie. "
     "There is no clock."),
    ("Starting",
     "You name the teams and call the coin. Whoever wins the toss picks: take the ball first, "
     "or defend first. Each drive starts at the offense's own 25 yard line."),
    ("Downs",
     "The offense has four downs, or tries, to gain ten yards. Gain them and you get four "
     "fresh downs. Fall short on fourth down and the other team takes over right there. "
     "Reach the far goal line for a touchdown."),
    ("Your cards",
     "Every down, both sides secretly pick 2 featured players out of 4, and 3 play calls out "
     "of 6. The offense picks offensive cards, the defense defensive ones. Cards come back "
     "every down."),
    ("Reveal and swap",
     "Both hands are shown together. Then each side may keep everything, swap one player, or "
     "swap one call, never both. The new hands are shown together too."),
    ("The final call",
     "Each side now picks one call of its three, and both are revealed. The computer always "
     "commits before it sees your choice, and it picks at random."),
    ("The band",
     "The two final calls meet in a matchup worth minus 3 to plus 3. Each featured player "
     "whose card names the offense's final call pushes it: an offensive player adds 1, a "
     "defensive player takes 1 away. The total, kept between minus 3 and plus 3, is the band. "
     "Higher bands mean bigger gains and fewer disasters for the offense."),
    ("What can happen",
     "Runs gain yards from a table for the band. Passes can be complete, incomplete, "
     "intercepted, or sacked; a sack loses two dice worth of yards. After a run, a catch or a "
     "sack the ball may come loose, and either side recovers it half the time. Nobody ever "
     "runs back a turnover."),
    ("Scoring",
     "A touchdown is 6 points, then an automatic extra point try: 3 dice, 6 or more is good. "
     "A field goal is 3. A safety, being tackled in your own end zone, gives the other side 2 "
     "points and ends the whole game on the spot."),
    ("Kicking",
     "On offense you may punt or try a field goal before any down, instead of picking cards. "
     "A punt rolls 3 dice and goes 30, 40 or 50 yards. A field goal's length is the distance "
     "to the goal line plus 17 yards; longer kicks need higher dice, and beyond 65 yards you "
     "cannot try. The computer kicks on fourth down."),
    ("The second drive",
     "After a touchdown or a good field goal, the other team starts at its own 25. After a "
     "punt, it starts where the ball came down, or at its 20 on a touchback. After a turnover "
     "or a failed fourth down, it starts where the ball was. After a missed field goal, it "
     "starts at the kicking spot, or its own 20 if that is better."),
    ("Listening tips",
     "S tells the score and the down. F plays a tone for the ball: higher and further right "
     "means closer to their goal. Comma and period step through everything said so far. "
     "O opens settings for speech speed, voice and how much is said. F1 helps anywhere."),
)


def rules_sections() -> list[tuple[str, str]]:
    """The sections, in reading order: (title, text)."""
    return list(RULES)
