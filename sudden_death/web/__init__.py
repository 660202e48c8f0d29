"""The browser seat (issue 64): a page the table server serves, and the words it shows.

A browser page is one more seat at a table, not a second game: it speaks the table protocol
(docs/protocol.md) over the same WebSocket, and the rules stay in the engine on the server.
What the page cannot do without the engine (know its choices, tell the events in words) the
server does for its line alone (`view.Viewer`), from nothing but what that seat is sent.
`site.Site` serves the page's own files and answers the page's line.
"""
