"""The table protocol's messages, below both the game's link (`net/`) and the table server
(`server/`), so neither imports the other (docs/protocol.md)."""
