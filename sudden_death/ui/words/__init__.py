"""Every word the game says about the game: phrases, cards, matchups, narration, help and rules.
No audio, no screens: engine values in, the player's language out."""
