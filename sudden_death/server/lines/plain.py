"""A plain HTTP request on a WebSocket port (the page's files, the operator's probes) answered
as HTTP/1.1 asks; websockets alone is written for a WebSocket's handshake, and three of its
ways hurt a plain request:

- It reads a request and then, in the same step, whatever follows as WebSocket frames. Two
  requests in one packet ("pipelined"): the second failed as a frame and closed the line
  before the first was answered (0 bytes back), and the answer, written after that close,
  tripped websockets' `assert not self.eof_sent` ("unexpected internal error"). Here
  (`request_first`) websockets' parser is given the request's head alone, and what follows is
  held until the answer is sent: after a plain request it is dropped (the first request is
  answered with `Connection: close` and the line closes; RFC 9112 9.6 lets a closing server
  leave requests pipelined after it unanswered, and the client sends them again on a new
  line); after an upgrade it is handed to websockets' frames once the line is open. Why not
  answer pipelined requests in order: websockets serves one request a connection, and each
  file costing a line keeps the per-address limits the page's own (web/site.py).
- Its parser reads no body: a head announcing one (PUT or POST with Content-Length,
  Transfer-Encoding), like any head it cannot read, closed the line without a word. Such a
  head is answered here (`unreadable`), 405 for a method other than GET and HEAD, else 400.
- It answers whatever the method. `methods` answers any but GET and HEAD 405 with `Allow`
  before process_request's own answer; `headless` gives HEAD the headers GET would have
  (Content-Length and all) and no body.

Two versions of websockets are in use: 17 (Python 3.11 and later) reads any method and names
it (`Request.method`); 16, the last for Python 3.10, reads GET alone and has no `method`. So a
HEAD's head is handed to websockets' parser as GET's, and the line keeps that it asked HEAD
(`asked_head`); every other method is refused before the parser on both (`unreadable`).

It touches no table, seat or account: it only shapes requests and answers.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Generator
from http import HTTPStatus

from websockets.datastructures import Headers
from websockets.exceptions import SecurityError
from websockets.http11 import Request, Response
from websockets.protocol import CONNECTING
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

__all__ = ["ALLOWED", "headless", "methods", "request_first", "unreadable"]

ALLOWED = ("GET", "HEAD")
HEAD_END = b"\r\n\r\n"  # websockets' parser requires CRLF line ends
# A head longer than this without its end is left to websockets' parser, which refuses a
# line or a count of headers past its own limits (414, 431).
HEAD_BYTES = 64 * 1024
HELD_BYTES = 64 * 1024  # frames a client sends before its 101: a compliant one sends none
Answer = Callable[..., Awaitable[Response | None] | Response | None]
HEAD_ASKED = "_sudden_death_head"  # set on a line's protocol whose request was a HEAD


def refusal(status: HTTPStatus, text: str, allow: str = "") -> Response:
    """A one-line plain answer that closes its line; `allow`: the methods that would do."""
    body = text.encode()
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"),
                       ("Content-Length", str(len(body))), ("Cache-Control", "no-store"),
                       ("Connection", "close")])
    if allow:
        headers["Allow"] = allow
    return Response(status.value, status.phrase, headers, body)


def not_allowed(allow: str = ", ".join(ALLOWED)) -> Response:
    return refusal(HTTPStatus.METHOD_NOT_ALLOWED, "Only GET and HEAD are answered here.\n",
                   allow)


def unreadable(head: bytes) -> Response | None:
    """The answer to a complete head websockets' parser cannot read (a body announced, a
    malformed line), which it would close without a word; None for one it reads, or refuses
    itself in words (a line or headers too long)."""
    reader = StreamReader()
    reader.feed_data(head)
    reader.feed_eof()
    try:
        next(Request.parse(reader.read_line))
    except StopIteration:  # read whole
        return None
    except SecurityError:
        return None
    except (ValueError, NotImplementedError, EOFError):  # its refusals without a word
        method = head.split(b" ", 1)[0]
        if method.isalpha() and method.isupper() and method.decode() not in ALLOWED:
            upgrade = b"\r\nupgrade: websocket" in head.lower().replace(b":websocket",
                                                                       b": websocket")
            return not_allowed("GET") if upgrade else not_allowed()
        return refusal(HTTPStatus.BAD_REQUEST, "A request this server cannot read.\n")
    return None  # more wanted than a complete head: websockets decides


def request_first(protocol: ServerProtocol) -> Generator[None]:
    """`protocol`'s parser in place of websockets' own (`protocol.parser`): its own, given the
    request's head alone; what follows is held until the answer is sent (see the module)."""
    reader = protocol.reader
    searched = 0
    while (end := reader.buffer.find(HEAD_END, searched)) < 0:
        if reader.eof or len(reader.buffer) > HEAD_BYTES:
            yield from protocol.parse()  # no whole head: websockets refuses it its own way
        searched = max(len(reader.buffer) - len(HEAD_END) + 1, 0)
        yield
    end += len(HEAD_END)
    after = bytes(reader.buffer[end:])
    del reader.buffer[end:]
    if reader.buffer.startswith(b"HEAD "):  # read as GET (websockets 16 reads no other)
        reader.buffer[:4] = b"GET"
        setattr(protocol, HEAD_ASKED, True)
    answer = unreadable(bytes(reader.buffer))
    if answer is not None:
        del reader.buffer[:]
        protocol.send_response(answer)  # written, EOF sent: its parser is websockets' discard
        yield  # never stepped again
    own = protocol.parse()
    next(own)  # the request read (an event); its frames wait
    if protocol.eof_sent:  # the client gone already: websockets' discard has the line
        yield
    request = protocol.events[-1]
    assert isinstance(request, Request)  # help mypy: its only event before the answer
    upgrade = "websocket" in request.headers.get("Upgrade", "").lower()
    while protocol.state is CONNECTING and not protocol.eof_sent:  # until answered
        if reader.eof:  # gone before its answer: as websockets has it (no answer)
            del reader.buffer[:]
            break
        if upgrade and len(after) + len(reader.buffer) <= HELD_BYTES:
            after += bytes(reader.buffer)
        del reader.buffer[:]
        yield
    else:  # a plain answer hands the parser to websockets' discard: this is an upgrade's
        reader.buffer[:0] = after
    yield from own


def methods(answer: Answer) -> Callable[..., Awaitable[Response | None]]:
    """process_request's `answer`, after the method: anything but GET and HEAD answered 405
    (a WebSocket's upgrade: anything but GET)."""

    async def checked(line: object, request: Request) -> Response | None:
        upgrade = "websocket" in request.headers.get("Upgrade", "").lower()
        method = "HEAD" if asked_head(line) else method_of(request)
        if method not in (("GET",) if upgrade else ALLOWED):
            return not_allowed("GET" if upgrade else ", ".join(ALLOWED))
        found = answer(line, request)
        return await found if inspect.isawaitable(found) else found

    return checked


def method_of(request: Request) -> str:
    """The request's method: websockets 16 reads GET alone and does not name it."""
    return str(getattr(request, "method", "GET"))


def asked_head(line: object) -> bool:
    """Whether `line`'s request was a HEAD (read as GET: see the module)."""
    return bool(getattr(getattr(line, "protocol", None), HEAD_ASKED, False))


def headless(line: object, request: Request, response: Response) -> Response:
    """process_response: a HEAD request's answer without its body (its headers, Content-Length
    included, as GET's)."""
    if (asked_head(line) or method_of(request) == "HEAD") and response.body:
        return dataclasses.replace(response, body=b"")
    return response
