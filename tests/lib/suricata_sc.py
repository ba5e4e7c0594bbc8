"""A client of Suricata's unix-socket protocol, written from its documentation: connect, send
the {"version": "0.2"} hello without a newline (as suricatasc does), then one JSON command per
message ({"command": ..., "arguments": {...}}); each answer is one JSON object ending in a
newline. Used to check Osprey's control socket speaks it (tests/service/test_suricata_socket.py)."""
import json
import socket


class SuricataSocket:
    def __init__(self, path, timeout=30):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buf = b""
        self.sock.sendall(json.dumps({"version": "0.2"}).encode())  # no newline: the protocol's
        self.hello = self._answer()

    def _answer(self):
        while not self.buf.endswith(b"\n"):
            data = self.sock.recv(4096)
            if not data:
                raise ConnectionError("the server closed the socket")
            self.buf += data
        answer, self.buf = json.loads(self.buf), b""
        return answer

    def command(self, name, **arguments):
        msg = {"command": name}
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        return self._answer()

    def close(self):
        self.sock.close()
