"""The window, for a sighted helper: the pure layout, the drawing, its colours and the frame log."""
