"""Sudden Death: an audio-first American-football card game."""

__version__ = "0.1.0"
