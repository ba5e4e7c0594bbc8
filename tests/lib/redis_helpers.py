"""A real redis-server for the EVE-to-Redis tests: started on a free port in a temp dir (no
persistence), stopped and started again on the same port, and a small RESP client (the
tests need no redis Python package)."""
import shutil
import signal
import socket
import subprocess
import time

import pytest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Resp:
    """One connection speaking RESP: commands and replies, pub/sub messages."""

    def __init__(self, port, timeout=10):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def close(self):
        self.s.close()

    def _line(self):
        while b"\r\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                raise ConnectionError("redis closed the connection")
            self.buf += d
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            d = self.s.recv(65536)
            if not d:
                raise ConnectionError("redis closed the connection")
            self.buf += d
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise RuntimeError(f"unexpected RESP line {line!r}")

    def cmd(self, *args):
        parts = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.s.sendall(b"".join(parts))
        return self.reply()


class RedisServer:
    """redis-server on 127.0.0.1:port with its files in tmp_path; stop() kills it (as a crash
    would), start() brings it back, empty, on the same port."""

    def __init__(self, tmp_path):
        if not shutil.which("redis-server"):
            pytest.fail("redis-server is not installed (tools/install-deps.sh installs it)")
        self.dir = tmp_path / "redis"
        self.dir.mkdir(exist_ok=True)
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.time() + 10
        while time.time() < end:
            try:
                c = Resp(self.port)
                if c.cmd("PING") == "PONG":
                    c.close()
                    return
            except OSError:
                time.sleep(0.05)
        pytest.fail("redis-server did not start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def client(self):
        return Resp(self.port)

    def cmd(self, *args):
        c = self.client()
        try:
            return c.cmd(*args)
        finally:
            c.close()


def redis_args(port, mode, key="eve", *more):
    """osprey --set options: EVE to this Redis."""
    sets = ["outputs.eve-log.filetype=redis", f"outputs.eve-log.redis.port={port}",
            f"outputs.eve-log.redis.mode={mode}", f"outputs.eve-log.redis.key={key}", *more]
    return [a for s in sets for a in ("--set", s)]


__all__ = ["RedisServer", "Resp", "redis_args", "free_port"]
