"""What helps a player beyond the decisions: settings, the history, the field tone, the lesson
and How to play."""
