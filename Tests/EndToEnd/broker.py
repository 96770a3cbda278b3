"""Debian's mosquitto for the tests: started on a configuration the test
writes, waited for until it accepts, and asked for retained messages with
its own client."""
import os
import socket
import subprocess

from waiting import wait_for


# The Home Assistant configurations the kiosk publishes (HomeAssistantDiscovery.swift),
# and at most how many retained messages it keeps under its own topic.
DISCOVERY_CONFIGS = 15
RETAINED_TOPICS = 12


def password_broker(work, port, user, password, extra=""):
    """A home broker's configuration in `work`: a listener on 127.0.0.1:`port`, `user` with
    `password` and no one else, nothing kept across restarts; the password also in `work`/password
    for the kiosk's mqtt.password_file. Returns the configuration's path."""
    subprocess.run(["mosquitto_passwd", "-b", "-c", os.path.join(work, "passwd"), user, password], check=True, capture_output=True)
    conf = os.path.join(work, "mosquitto.conf")
    open(conf, "w").write(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {work}/passwd\npersistence false\n" + extra)
    # Run as root, mosquitto drops to its own user: that user must read its files.
    os.chmod(work, 0o755)
    os.chmod(os.path.join(work, "passwd"), 0o644)
    open(os.path.join(work, "password"), "w").write(password + "\n")
    return conf


def start_mosquitto(conf, port, log_path):
    """mosquitto on `conf`, accepting on 127.0.0.1:`port`; its output appended to `log_path`."""
    log = open(log_path, "a")
    proc = subprocess.Popen(["mosquitto", "-c", conf], stdout=log, stderr=log)

    def accepting():
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            return False
    if not wait_for(accepting, 10):
        raise RuntimeError("mosquitto did not start: " + open(log_path).read())
    return proc


def retained(client_args, topic, expect, timeout=3):
    """What a new subscriber gets at once: the retained messages (topic -> payload)."""
    out = subprocess.run(["mosquitto_sub", *client_args, "-t", topic, "-v", "-C", str(expect), "-W", str(timeout), "--retained-only"],
                         capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
