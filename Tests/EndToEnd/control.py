"""The kiosk's control socket, as a client sees it: one JSON command line,
one JSON reply."""
import json
import socket


def command(path, line, timeout=5.0):
    """Sends one command line on the unix socket at `path`; returns its reply (a dict), or raises."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(path)
    s.sendall(line.encode() + b"\n")
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    s.close()
    return json.loads(data or b"{}")


def stop(proc, timeout=15):
    """Stops a kiosk process with SIGTERM (SIGKILL after `timeout` s); returns its exit status."""
    import signal
    import subprocess
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.returncode
