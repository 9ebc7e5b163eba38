#!/usr/bin/env python3
"""s3proxy.py - a fault-injecting HTTP/1.1 proxy for the S3 tests (issue 23).

The S3 tests put it between zsink and a real S3 server (SeaweedFS) to answer
some requests with errors, reset or hold connections, and - the case that
matters - lose the answer to a PUT after the server has stored it.
Python 3 standard library only.

Usage:
    python3 s3proxy.py --listen 127.0.0.1:0 --upstream http://127.0.0.1:PORT
                       --port-file F --control-file C [--log L]
    python3 s3proxy.py --check-rule 'RULE'    exit 0 if RULE parses, else 2

--listen HOST:PORT (port 0: any free one). The port it listens on is
written to F (atomically: temp + rename) once it accepts connections.
Stopped by a signal (TERM); it keeps no state on disk but the log.

Forwarding. Every request is passed on verbatim to the upstream: request
line (method, target with its query string as received), all header lines
as received, in their order and case - Host included: SigV4 signs the Host
header, and the client signed for the proxy's address, which is what the
server must see - and the body as received (Content-Length or chunked
framing, bytes untouched). The answer comes back verbatim the same way.
Client connections are kept alive (HTTP/1.1: many requests on one
connection); each request gets a fresh upstream connection, so the proxy
never retries anything on a stale one and never adds an ambiguity of its
own. `Expect: 100-continue` goes through end to end: the server's
`100 Continue` (or its early final answer) is relayed, and the body follows
it; if the server says nothing within 1 s the body is sent anyway (as curl
does). When the server cannot be reached, or drops the connection, the
client's connection is reset.

Faults. The control file C holds rules, one a line; it is read again on
every request (a missing file = no rules; '#' starts a comment line):

    METHOD KEY-REGEX ACTION [ARG] [COUNT]

  METHOD     GET, PUT, HEAD, POST, DELETE, ... or * for any
  KEY-REGEX  a Python regex, re.search()ed against the path of the request
             without its query string (e.g. /bucket/wh/t/snapshot/snapshot-3);
             no blanks in it (write \\s)
  ACTION     status CODE   answer CODE (400..599) with an S3 XML error
                           body (503: SlowDown, 500: InternalError, ...),
                           not forwarded; the body is read first (100
                           Continue sent when asked for), so the connection
                           stays usable
             reset         reset the connection (RST, SO_LINGER 0) at once,
                           not forwarded: nothing reaches the server
             lose-answer   forward, let the server answer (it has stored the
                           object), swallow the answer and reset the
                           client's connection: the client cannot tell
                           whether its request took effect
             delay MS      wait MS milliseconds, then forward as usual (a
                           client that gave up meanwhile may still find its
                           request done, as over a slow network)
             hang          never answer: hold the connection until the
                           client closes it (10 min at most), not forwarded
  COUNT      how many matching requests the rule applies to, then it is
             spent; absent: every one

Rules are tried in file order; the first that matches and is not spent
applies. A rule's count survives changes that only append lines to the
file (tests add rules as they go); any other change starts every rule
afresh (s3proxy_clear in lib_s3.sh writes a unique comment line for that).
A line that does not parse is reported (stderr and log) and ignored.

Log (L), one event a line, appended and flushed as it happens:
    TIME conn=N open PEER
    TIME conn=N req METHOD PATH [q=NAME,...] [prefix=P]
                                              query parameter names only,
                                              but a listing's prefix value
    TIME conn=N answer STATUS METHOD PATH     forwarded, answered
    TIME conn=N sizes STATUS METHOD PATH up=N down=N
                                              the answer's body passed back
                                              in full: body bytes sent to
                                              the server and received (the
                                              payload; chunk framing and
                                              heads not counted)
    TIME conn=N fault ACTION[:ARG] METHOD PATH   a rule applied
    TIME conn=N lost STATUS METHOD PATH       the answer lose-answer ate
    TIME conn=N error WHAT METHOD PATH        upstream unreachable or gone
    TIME conn=N close
    TIME conn=- rule-error FILE line N: WHY
req, fault, answer and lost are written before the client hears anything
of its request's outcome: a test may read them as soon as its request
returns. No header and no query value but a listing's prefix is logged:
no secret lands there.
"""

import argparse
import http
import itertools
import os
import re
import select
import socket
import struct
import sys
import threading
import time
import urllib.parse
from xml.sax.saxutils import escape

CHUNK = 65536
MAX_HEAD = 65536
UPSTREAM_TIMEOUT = 300.0
HANG_MAX = 600.0
EXPECT_WAIT = 1.0

S3_ERRORS = {
    400: ("BadRequest", "Injected bad request."),
    403: ("AccessDenied", "Access Denied"),
    404: ("NoSuchKey", "The specified key does not exist."),
    409: ("OperationAborted", "A conflicting conditional operation is in progress."),
    412: ("PreconditionFailed", "At least one of the preconditions you specified did not hold."),
    429: ("SlowDown", "Please reduce your request rate."),
    500: ("InternalError", "We encountered an internal error. Please try again."),
    502: ("BadGateway", "Injected bad gateway."),
    503: ("SlowDown", "Please reduce your request rate."),
    504: ("GatewayTimeout", "Injected gateway timeout."),
}
ACTIONS = {"status": True, "delay": True, "reset": False, "lose-answer": False, "hang": False}


class ClientGone(Exception):
    """The client closed or broke its connection."""


class UpstreamGone(Exception):
    """The server could not be reached or broke the connection."""


# --- rules -------------------------------------------------------------------


class Rule:
    def __init__(self, line):
        f = line.split()
        if len(f) < 3:
            raise ValueError("want METHOD KEY-REGEX ACTION [ARG] [COUNT]")
        self.method, self.action = f[0], f[2]
        if not re.fullmatch(r"\*|[A-Z]+", self.method):
            raise ValueError("method '%s' is not * or an upper-case HTTP method" % self.method)
        try:
            self.regex = re.compile(f[1])
        except re.error as e:
            raise ValueError("bad regex '%s': %s" % (f[1], e))
        if self.action not in ACTIONS:
            raise ValueError("unknown action '%s' (%s)" % (self.action, ", ".join(ACTIONS)))
        rest = f[3:]
        self.arg = None
        if ACTIONS[self.action]:
            if not rest or not rest[0].isdigit():
                raise ValueError("%s needs a number (%s)" % (self.action, "CODE" if self.action == "status" else "MS"))
            self.arg = int(rest.pop(0))
            if self.action == "status" and not 400 <= self.arg <= 599:
                raise ValueError("status %d is not an error (400..599)" % self.arg)
        self.count = None
        if rest:
            if not rest[0].isdigit() or int(rest[0]) < 1:
                raise ValueError("count '%s' is not a positive number" % rest[0])
            self.count = int(rest.pop(0))
        if rest:
            raise ValueError("unexpected '%s' after the rule" % " ".join(rest))

    def name(self):
        return self.action if self.arg is None else "%s:%d" % (self.action, self.arg)


class Rules:
    """The control file's rules and what is left of their counts."""

    def __init__(self, path, log):
        self.path, self.log = path, log
        self.lock = threading.Lock()
        self.text = ""
        self.rules = []  # (line number, Rule or None)
        self.reported = set()

    def _read(self):
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def _reload(self):
        text = self._read()
        if text == self.text:
            return
        # lines appended only: the old rules keep their counts (those of
        # complete lines: a last line read half-written is parsed afresh)
        done = self.text[: self.text.rfind("\n") + 1]
        old = self.rules[: done.count("\n")] if text.startswith(done) else []
        rules = []
        lines = text.splitlines()
        for n, line in enumerate(lines, 1):
            if n <= len(old):
                rules.append(old[n - 1])
                continue
            line = line.strip()
            if not line or line.startswith("#"):
                rules.append((n, None))
                continue
            try:
                rules.append((n, Rule(line)))
            except ValueError as e:
                rules.append((n, None))
                half = n == len(lines) and not text.endswith("\n")
                if not half and (n, line) not in self.reported:
                    self.reported.add((n, line))
                    msg = "%s line %d: %s" % (self.path, n, e)
                    print("s3proxy: " + msg, file=sys.stderr, flush=True)
                    self.log.event("-", "rule-error", msg)
        self.text, self.rules = text, rules

    def match(self, method, path):
        with self.lock:
            self._reload()
            for _, r in self.rules:
                if r is None or r.count == 0:
                    continue
                if r.method not in ("*", method) or not r.regex.search(path):
                    continue
                if r.count is not None:
                    r.count -= 1
                return r
        return None


# --- log ---------------------------------------------------------------------


class Log:
    def __init__(self, path):
        self.f = open(path, "a", encoding="utf-8") if path else None
        self.lock = threading.Lock()

    def event(self, conn, what, *fields):
        if self.f is None:
            return
        t = time.time()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int(t % 1 * 1000)
        line = " ".join([stamp, "conn=%s" % conn, what] + [str(x) for x in fields])
        with self.lock:
            self.f.write(line + "\n")
            self.f.flush()


# --- HTTP framing ------------------------------------------------------------


def read_head(rf, who):
    """Start line and header lines (raw bytes) up to the blank line; None at
    a clean EOF before the first byte."""
    lines, size = [], 0
    while True:
        try:
            line = rf.readline(MAX_HEAD)
        except OSError as e:
            raise who("read: %s" % e)
        if not line:
            if lines:
                raise who("EOF inside a message head")
            return None
        if not lines and line in (b"\r\n", b"\n"):
            continue  # RFC 9112 2.2: blank lines before a request line
        size += len(line)
        if size > MAX_HEAD or not line.endswith(b"\n"):
            raise who("message head too long")
        if line in (b"\r\n", b"\n"):
            return lines
        lines.append(line)


def headers_of(lines):
    """Header lines -> list of (lower-case name, value)."""
    out = []
    for raw in lines[1:]:
        name, _, value = raw.decode("latin-1").partition(":")
        out.append((name.strip().lower(), value.strip()))
    return out


def header(hdrs, name):
    vals = [v for n, v in hdrs if n == name]
    return ",".join(vals) if vals else None


def has_token(hdrs, name, token):
    v = header(hdrs, name)
    return v is not None and token in [t.strip().lower() for t in v.split(",")]


def body_framing(hdrs):
    """('chunked', None), ('length', N) or ('none', 0) for a request; a
    response without either is ('eof', None)."""
    if has_token(hdrs, "transfer-encoding", "chunked"):
        return ("chunked", None)
    cl = header(hdrs, "content-length")
    if cl is not None:
        cl = cl.split(",")[0].strip()
        if not cl.isdigit():
            raise ValueError("bad Content-Length '%s'" % cl)
        return ("length", int(cl))
    return ("none", 0)


def read_some(rf, n, who):
    try:
        data = rf.read(n) if n else b""
    except OSError as e:
        raise who("read: %s" % e)
    if len(data) < n:
        raise who("EOF inside a body")
    return data


def send(sock, data, who):
    if sock is None:
        return
    try:
        sock.sendall(data)
    except OSError as e:
        raise who("write: %s" % e)


def copy_body(rf, src, sock, dst, framing):
    """Body bytes from rf to sock (None: drop them), framing unchanged. src
    and dst are the exceptions for either side's failures. Returns the
    body's size: its payload bytes, chunk framing not counted."""
    kind, n = framing
    moved = 0
    if kind == "length":
        while n > 0:
            data = read_some(rf, min(n, CHUNK), src)
            send(sock, data, dst)
            n -= len(data)
            moved += len(data)
    elif kind == "chunked":
        while True:
            line = read_line(rf, src)
            send(sock, line, dst)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise src("bad chunk size line")
            if size == 0:
                while True:  # trailer fields, then the blank line
                    line = read_line(rf, src)
                    send(sock, line, dst)
                    if line in (b"\r\n", b"\n"):
                        return moved
            moved += copy_body(rf, src, sock, dst, ("length", size))
            send(sock, read_line(rf, src), dst)  # the chunk's CRLF
    elif kind == "eof":
        while True:
            try:
                data = rf.read1(CHUNK)
            except OSError as e:
                raise src("read: %s" % e)
            if not data:
                return moved
            send(sock, data, dst)
            moved += len(data)
    return moved


def read_line(rf, who):
    try:
        line = rf.readline(MAX_HEAD)
    except OSError as e:
        raise who("read: %s" % e)
    if not line.endswith(b"\n"):
        raise who("EOF or overlong line inside a chunked body")
    return line


def xml_error(code, method, path):
    name, msg = S3_ERRORS.get(code, ("InjectedError", "Injected by s3proxy."))
    rid = "s3proxy%016x" % (time.monotonic_ns() & 0xFFFFFFFFFFFFFFFF)
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code><Message>%s</Message>'
        "<Resource>%s</Resource><RequestId>%s</RequestId></Error>" % (name, msg, escape(path), rid)
    ).encode()
    return body, rid


# --- a client connection -----------------------------------------------------


class Conn:
    ids = itertools.count(1)

    def __init__(self, proxy, sock, peer):
        self.proxy, self.sock, self.peer = proxy, sock, peer
        self.id = next(Conn.ids)
        self.rf = sock.makefile("rb", buffering=CHUNK)
        self.log = proxy.log

    def serve(self):
        self.log.event(self.id, "open", "%s:%d" % self.peer[:2])
        try:
            while self.one_request():
                pass
        except ClientGone:
            pass
        except UpstreamGone:
            self.reset()
        finally:
            self.close()
            self.log.event(self.id, "close")

    def close(self):
        try:
            self.rf.close()
            self.sock.close()
        except OSError:
            pass

    def reset(self):
        """Close with RST: SO_LINGER on with a zero timeout."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.close()

    def one_request(self):
        """Serves one request; False when the connection is to be closed."""
        lines = read_head(self.rf, ClientGone)
        if lines is None:
            return False
        start = lines[0].decode("latin-1").split()
        if len(start) != 3 or not start[2].startswith("HTTP/"):
            raise ClientGone("bad request line")
        method, target, version = start
        hdrs = headers_of(lines)
        try:
            framing = body_framing(hdrs)
        except ValueError as e:
            raise ClientGone(str(e))
        url = urllib.parse.urlsplit(target)
        path = url.path or "/"
        q = [kv.split("=")[0] for kv in url.query.split("&") if kv]
        # a listing's prefix (a key, no secret) says what is listed
        pfx = ["prefix=" + v for k, v in urllib.parse.parse_qsl(url.query) if k == "prefix"]
        self.log.event(self.id, "req", method, path, *(["q=" + ",".join(q)] if q else []), *pfx)
        keep = not has_token(hdrs, "connection", "close") and (
            version != "HTTP/1.0" or has_token(hdrs, "connection", "keep-alive")
        )
        req = Request(method, path, lines, hdrs, framing, keep)
        rule = self.proxy.rules.match(method, path)
        if rule is None:
            return self.forward(req)
        self.log.event(self.id, "fault", rule.name(), method, path)
        return getattr(self, "fault_" + rule.action.replace("-", "_"))(req, rule)

    # --- faults ---

    def fault_status(self, req, rule):
        if req.expect:
            send(self.sock, b"HTTP/1.1 100 Continue\r\n\r\n", ClientGone)
        copy_body(self.rf, ClientGone, None, ClientGone, req.framing)
        body, rid = xml_error(rule.arg, req.method, req.path)
        try:
            reason = "Slow Down" if rule.arg == 503 else http.HTTPStatus(rule.arg).phrase
        except ValueError:
            reason = "Injected"
        head = [
            "HTTP/1.1 %d %s" % (rule.arg, reason),
            "Content-Type: application/xml",
            "Content-Length: %d" % len(body),
            "x-amz-request-id: %s" % rid,
            "Date: %s" % time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime()),
            "Server: s3proxy",
            "Connection: %s" % ("keep-alive" if req.keep else "close"),
        ]
        if req.method == "HEAD":
            body = b""
        send(self.sock, ("\r\n".join(head) + "\r\n\r\n").encode() + body, ClientGone)
        return req.keep

    def fault_reset(self, req, rule):
        self.reset()
        return False

    def fault_hang(self, req, rule):
        end = time.monotonic() + HANG_MAX
        while time.monotonic() < end:
            r, _, _ = select.select([self.sock], [], [], 1.0)
            if r:
                try:
                    if not self.sock.recv(CHUNK):
                        break
                except OSError:
                    break
        return False

    def fault_delay(self, req, rule):
        time.sleep(rule.arg / 1000.0)
        return self.forward(req)

    def fault_lose_answer(self, req, rule):
        return self.forward(req, lose=True)

    # --- forwarding ---

    def forward(self, req, lose=False):
        """Passes req on over a new upstream connection and its answer back
        (lose: the final answer is read and dropped, the client reset)."""
        try:
            up = socket.create_connection(self.proxy.upstream, timeout=UPSTREAM_TIMEOUT)
        except OSError as e:
            self.log.event(self.id, "error", "connect:" + type(e).__name__, req.method, req.path)
            raise UpstreamGone(str(e))
        up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        urf = up.makefile("rb", buffering=CHUNK)
        try:
            return self.exchange(req, up, urf, lose)
        except UpstreamGone as e:
            self.log.event(self.id, "error", "upstream:" + str(e).replace(" ", "_"), req.method, req.path)
            raise
        finally:
            urf.close()
            up.close()

    def exchange(self, req, up, urf, lose):
        send(up, b"".join(req.lines) + b"\r\n", UpstreamGone)
        body_sent = False
        if req.expect:
            # the server's 100 Continue (relayed) or its early final answer
            r, _, _ = select.select([up], [], [], EXPECT_WAIT)
            if r:
                status, lines, hdrs = self.read_answer_head(urf)
                if status >= 200:
                    return self.final(req, status, lines, hdrs, urf, lose, early=True)
                send(self.sock, b"".join(lines) + b"\r\n", ClientGone)
        req.sent = copy_body(self.rf, ClientGone, up, UpstreamGone, req.framing)
        body_sent = True
        while True:
            status, lines, hdrs = self.read_answer_head(urf)
            if status >= 200:
                return self.final(req, status, lines, hdrs, urf, lose, early=not body_sent)
            send(self.sock, b"".join(lines) + b"\r\n", ClientGone)  # a 1xx

    def read_answer_head(self, urf):
        lines = read_head(urf, UpstreamGone)
        if lines is None:
            raise UpstreamGone("closed without an answer")
        f = lines[0].split()
        if len(f) < 2 or not f[0].startswith(b"HTTP/") or not f[1].isdigit():
            raise UpstreamGone("bad status line")
        return int(f[1]), lines, headers_of(lines)

    def final(self, req, status, lines, hdrs, urf, lose, early):
        if req.method == "HEAD" or status in (204, 304):
            framing = ("none", 0)
        else:
            try:
                framing = body_framing(hdrs)
            except ValueError as e:
                raise UpstreamGone(str(e))
            if framing[0] == "none":
                framing = ("eof", None)
        if lose:
            copy_body(urf, UpstreamGone, None, ClientGone, framing)
            self.log.event(self.id, "lost", status, req.method, req.path)
            self.reset()
            return False
        # logged first: once the client has its answer, the line is there
        self.log.event(self.id, "answer", status, req.method, req.path)
        send(self.sock, b"".join(lines) + b"\r\n", ClientGone)
        down = copy_body(urf, UpstreamGone, self.sock, ClientGone, framing)
        self.log.event(self.id, "sizes", status, req.method, req.path, "up=%d" % req.sent, "down=%d" % down)
        # an answer before the body was sent leaves the client's body (some,
        # all or none of it) on the connection: it cannot be reused
        return (
            req.keep
            and not early
            and framing[0] != "eof"
            and not has_token(hdrs, "connection", "close")
        )


class Request:
    def __init__(self, method, path, lines, hdrs, framing, keep):
        self.method, self.path, self.lines, self.hdrs = method, path, lines, hdrs
        self.framing, self.keep = framing, keep
        self.sent = 0  # body bytes passed on to the server
        has_body = framing[0] == "chunked" or framing[1] > 0
        self.expect = has_body and has_token(hdrs, "expect", "100-continue")


# --- main --------------------------------------------------------------------


class Proxy:
    def __init__(self, args):
        self.log = Log(args.log)
        self.rules = Rules(args.control_file, self.log)
        up = urllib.parse.urlsplit(args.upstream)
        if up.scheme != "http" or not up.hostname or not up.port:
            raise SystemExit("s3proxy: --upstream must be an http URL with a host and a port, not '%s'" % args.upstream)
        self.upstream = (up.hostname, up.port)

    def run(self, listen, port_file):
        host, _, port = listen.rpartition(":")
        if not host or not port.isdigit():
            raise SystemExit("s3proxy: --listen must be HOST:PORT, not '%s'" % listen)
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind((host, int(port)))
        ls.listen(128)
        tmp = port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % ls.getsockname()[1])
        os.rename(tmp, port_file)
        while True:
            sock, peer = ls.accept()
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            c = Conn(self, sock, peer)
            threading.Thread(target=c.serve, daemon=True).start()


def main():
    p = argparse.ArgumentParser(description="fault-injecting HTTP proxy for the S3 tests")
    p.add_argument("--listen", default="127.0.0.1:0")
    p.add_argument("--upstream")
    p.add_argument("--port-file")
    p.add_argument("--control-file")
    p.add_argument("--log")
    p.add_argument("--check-rule", metavar="RULE", help="parse RULE, exit 0 (good) or 2")
    args = p.parse_args()
    if args.check_rule is not None:
        try:
            Rule(args.check_rule)
        except ValueError as e:
            print("s3proxy: bad rule '%s': %s" % (args.check_rule, e), file=sys.stderr)
            sys.exit(2)
        return
    for need in ("upstream", "port_file", "control_file"):
        if not getattr(args, need):
            p.error("--%s is required" % need.replace("_", "-"))
    Proxy(args).run(args.listen, args.port_file)


if __name__ == "__main__":
    main()
