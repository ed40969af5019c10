"""An HTTP server on 127.0.0.1 for the staging tests, serving and storing files under a folder,
with failures on request (by path prefix):

  /flaky/N/F        the first N requests for this path answer 503
  /cut/F            the first request sends half the body, then drops the connection
  /stall/F          the first request sends half the body, then stops sending (30 s)
  /norange/F        ignores Range headers (always 200 with the whole file)
  /cutnorange/F     /cut, then /norange
  /cutnovalidator/F /cut, and no answer has an ETag or Last-Modified
  /cutchange/F      /cut, then the file is F.v2 (another ETag, another Last-Modified)
  /cutchangeliar/F  /cutchange, but If-Range ignored (the rest of F.v2 as if it were F)
  /trickle/F        sends the body 100 bytes every 0.25 s (400 B/s), for 60 s at most
  /empty/F          closes the connection without an answer
  /redirect-file/F  302 to file:///etc/hostname (another scheme)
  /redirect-same/F  302 to /F on this server
  /put-fail/N/F     the first N PUTs for this path answer 500

GET /_log answers the requests seen so far as JSON (method, path, range, status, checksum
header, If-Range header). Every file's answer has a strong ETag (from its content) and a
Last-Modified date (from its modification time), and a Range is answered only when If-Range, if
sent, names the file's current ETag or date. Usage: http_server.py ROOT PORTFILE (the port it bound is written to PORTFILE)."""
import email.utils
import hashlib
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
LOG = []
COUNTS = {}
LOCK = threading.Lock()


def count(key):
    with LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with LOCK:
            LOG.append({"method": self.command, "path": self.path,
                        "range": self.headers.get("Range"), "status": status,
                        "sha256": self.headers.get("X-Checksum-Sha256"),
                        "if_range": self.headers.get("If-Range")})

    def answer(self, status, body=b"", headers=None):
        self.record(status)
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def parse(self):
        parts = self.path.lstrip("/").split("/")
        mode, n = "", 0
        if parts[0] in ("flaky", "put-fail"):
            mode, n, parts = parts[0], int(parts[1]), parts[2:]
        elif parts[0] in ("cut", "stall", "norange", "cutnorange", "redirect-file", "redirect-same",
                          "cutnovalidator", "cutchange", "cutchangeliar", "trickle", "empty"):
            mode, parts = parts[0], parts[1:]
        return mode, n, "/".join(parts)

    def do_GET(self):
        if self.path == "/_log":
            return self.answer(200, json.dumps(LOG).encode(), {"Content-Type": "application/json"})
        mode, n, name = self.parse()
        seen = count(("GET", self.path))
        if mode == "flaky" and seen <= n:
            return self.answer(503, b"busy\n")
        if mode == "redirect-file":
            return self.answer(302, b"", {"Location": "file:///etc/hostname"})
        if mode == "redirect-same":
            return self.answer(302, b"", {"Location": "/" + name})
        if mode == "empty":
            self.record(0)
            self.close_connection = True
            return
        path = os.path.join(ROOT, name)
        if mode in ("cutchange", "cutchangeliar") and seen > 1:
            path += ".v2"
        if not os.path.isfile(path):
            return self.answer(404, b"not found\n")
        data = open(path, "rb").read()
        etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(os.path.getmtime(path), usegmt=True)
        validators = mode != "cutnovalidator"
        start = 0
        rng = self.headers.get("Range")
        ignore_range = mode == "norange" or (mode == "cutnorange" and seen > 1)
        if_range = self.headers.get("If-Range")
        if if_range and if_range not in (etag, modified) and mode != "cutchangeliar":
            ignore_range = True  # the file changed: the whole of it (RFC 9110, 13.1.5)
        if rng and not ignore_range and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            if start >= len(data):
                return self.answer(416, b"", {"Content-Range": f"bytes */{len(data)}"})
        body = data[start:]
        status = 206 if start else 200
        self.record(status)
        self.send_response(status)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Accept-Ranges", "none" if ignore_range else "bytes")
        if validators:
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode == "trickle":
            t0 = time.monotonic()
            for i in range(0, len(body), 100):
                if time.monotonic() - t0 > 60:
                    break
                self.wfile.write(body[i:i + 100])
                self.wfile.flush()
                time.sleep(0.25)
            self.close_connection = True
            return
        if mode in ("cut", "cutnorange", "stall", "cutnovalidator", "cutchange",
                    "cutchangeliar") and seen == 1:
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            if mode == "stall":
                time.sleep(30)
            self.close_connection = True
            return
        self.wfile.write(body)

    def do_PUT(self):
        mode, n, name = self.parse()
        length = int(self.headers.get("Content-Length", "0"))
        data = self.rfile.read(length)
        if mode == "put-fail" and count(("PUT", self.path)) <= n:
            return self.answer(500, b"disk full\n")
        path = os.path.join(ROOT, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        self.answer(201, b"created\n")


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # clients that drop a connection on purpose (the tests) are not errors


server = Server(("127.0.0.1", 0), Handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
