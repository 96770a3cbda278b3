#!/usr/bin/env python3
"""What the end-to-end tests with servers on the loopback share: a free
port, whether something answers on one, and the tally of checks."""
import socket


def free_port():
    """A TCP port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port):
    """Whether something accepts a connection on 127.0.0.1:`port`."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Tally:
    """Named checks, each printed as it is decided, counted for the summary."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok: {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL: {name} {detail}".rstrip(), flush=True)
