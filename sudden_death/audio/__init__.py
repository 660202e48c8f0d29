"""The audio layer: self-voicing speech and sound cues. Never imported by the rules engine."""
