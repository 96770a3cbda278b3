#!/usr/bin/env python3
"""The kiosk on a real MQTT broker over TLS: Debian's mosquitto with a TLS
listener, its certificate from an authority this test makes (openssl). With
that authority trusted (mqtt.ca_file), discovery is published and commands
are taken; trusting another authority, or naming the broker by an address
its certificate does not carry, is one clear line each, and the kiosk runs on.
Usage: mqtt-tls.py PATH/radar-kiosk"""
import json, os, shutil, socket, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from control import command, stop  # noqa: E402
from loopback import free_port  # noqa: E402
from testca import make_ca, make_certificate  # noqa: E402
from broker import DISCOVERY_CONFIGS, start_mosquitto, retained as broker_retained  # noqa: E402

kiosk = sys.argv[1]
work = tempfile.mkdtemp(prefix="rk-mqtt-tls-")
os.chmod(work, 0o755)
passed = failed = 0
BASE = "radar-kiosk"


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    print(f"{'ok' if ok else 'FAIL'}: {name} {detail}".rstrip(), flush=True)


make_ca(work, "ca")
make_ca(work, "other-ca")
make_certificate(work, "broker", "ca", ["localhost"], 2)
make_certificate(work, "client", "ca", ["radar-kiosk"], 2)
PORT, CERT_PORT = free_port(), free_port()
# Two listeners: one that takes any client over TLS, one that asks for a client certificate.
open(os.path.join(work, "mosquitto.conf"), "w").write(
    f"allow_anonymous true\npersistence false\n"
    f"listener {PORT} 127.0.0.1\ncafile {work}/ca.pem\ncertfile {work}/broker.pem\nkeyfile {work}/broker.key\n"
    f"listener {CERT_PORT} 127.0.0.1\ncafile {work}/ca.pem\ncertfile {work}/broker.pem\nkeyfile {work}/broker.key\n"
    f"require_certificate true\n")
TLS = ["-h", "localhost", "-p", str(PORT), "--cafile", os.path.join(work, "ca.pem")]


def start_broker():
    return start_mosquitto(os.path.join(work, "mosquitto.conf"), PORT, os.path.join(work, "broker.log"))


def retained(topic, expect, timeout=3):
    return broker_retained(TLS, topic, expect, timeout)


class Kiosk:
    def __init__(self, name, broker, ca, extra=""):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.sock = os.path.join(self.dir, "k.sock")
        conf = os.path.join(self.dir, "k.conf")
        open(conf, "w").write(f"display = headless\nsize = 160x96\nrefresh = 30\nkeyboard = none\nsocket = {self.sock}\n"
                              f"mqtt.broker = {broker}\nmqtt.ca_file = {ca}\n{extra}")
        self.log = open(os.path.join(self.dir, "log"), "w+")
        self.proc = subprocess.Popen([kiosk, "run", "--config", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log)
        if not wait_for(lambda: "first frame on" in self.text(), 20):
            raise RuntimeError("the kiosk did not start: " + self.text())

    def text(self):
        self.log.flush()
        return open(self.log.name).read()

    def lines(self, word):
        return [l for l in self.text().splitlines() if word in l]


broker = start_broker()
kiosks = []
try:
    k = Kiosk("trusted", f"mqtts://localhost:{PORT}", os.path.join(work, "ca.pem"))
    kiosks.append(k)
    connected = wait_for(lambda: "mqtt connected" in k.text(), 15)
    configs = retained("homeassistant/#", DISCOVERY_CONFIGS)
    check("over TLS, with the test's authority trusted: connected and Home Assistant's discovery retained",
          connected and len(configs) == DISCOVERY_CONFIGS and "over TLS" in k.text(), f"({len(configs)} configurations) " + " / ".join(k.lines("mqtt")))
    subprocess.run(["mosquitto_pub", *TLS, "-t", f"{BASE}/command", "-m", '{"cmd":"set","state":{"mode":"overflight"}}'],
                   check=True, capture_output=True)
    shown = wait_for(lambda: command(k.sock, '{"cmd":"get"}').get("state", {}).get("mode") == "overflight", 10)
    state = retained(f"{BASE}/state", 1)
    check("a command over TLS is taken, and the new state comes back retained", shown and '"overflight"' in state.get(f"{BASE}/state", ""),
          str(state))

    # Another authority trusted: the broker's certificate is refused, in one line, and the kiosk runs on.
    def attempts():
        return open(os.path.join(work, "broker.log"), errors="replace").read().count("New connection from")
    before = attempts()
    wrong = Kiosk("wrong-ca", f"mqtts://localhost:{PORT}", os.path.join(work, "other-ca.pem"))
    kiosks.append(wrong)
    said = wait_for(lambda: wrong.lines("certificate is not accepted"), 15)
    # Retried with backoff (1 s, then 2 s): still one line after three attempts.
    retried = wait_for(lambda: attempts() >= before + 3, 15)
    lines = wrong.lines("mqtt localhost")
    alive = wrong.proc.poll() is None and command(wrong.sock, '{"cmd":"get"}').get("ok") is True
    check("trusting another authority: one line says the certificate is not accepted, and the kiosk runs on",
          bool(said) and retried and len(lines) == 1 and "mqtt connected" not in wrong.text() and alive,
          f"({attempts() - before} attempts) " + " / ".join(lines))

    # The broker named by an address its certificate does not carry (it is for localhost).
    by_address = Kiosk("by-address", f"mqtts://127.0.0.1:{PORT}", os.path.join(work, "ca.pem"))
    kiosks.append(by_address)
    said = wait_for(lambda: by_address.lines("certificate is not accepted"), 15)
    lines = by_address.lines("mqtt 127.0.0.1")
    check("a name the certificate does not carry: refused in one line", bool(said) and len(lines) == 1
          and "mqtt connected" not in by_address.text() and by_address.proc.poll() is None, " / ".join(lines))

    # A broker that asks for a client certificate: with the kiosk's (mqtt.tls on a
    # bare host and port, mqtt.cert_file, mqtt.key_file) it connects; without, one line.
    ca = os.path.join(work, "ca.pem")
    certified = Kiosk("client-certificate", f"localhost:{CERT_PORT}", ca,
                      f"mqtt.tls = yes\nmqtt.cert_file = {work}/client.pem\nmqtt.key_file = {work}/client.key\nmqtt.client_id = certified\n")
    kiosks.append(certified)
    connected = wait_for(lambda: "mqtt connected" in certified.text(), 15)
    check("a broker asking for a client certificate: the kiosk's is taken", connected, " / ".join(certified.lines("mqtt")))
    uncertified = Kiosk("no-client-certificate", f"mqtts://localhost:{CERT_PORT}", ca, "mqtt.client_id = uncertified\n")
    kiosks.append(uncertified)
    before = attempts()
    said = wait_for(lambda: uncertified.lines("mqtt localhost") and attempts() >= before + 3, 15)
    lines = uncertified.lines("mqtt localhost")
    check("without a client certificate: refused in one line, however often it retries",
          bool(said) and len(lines) == 1 and "mqtt connected" not in uncertified.text() and uncertified.proc.poll() is None, " / ".join(lines))
    unreadable = Kiosk("bad-client-certificate", f"mqtts://localhost:{CERT_PORT}", ca,
                       f"mqtt.cert_file = {work}/client.pem\nmqtt.key_file = {work}/broker.key\nmqtt.client_id = mismatched\n")
    kiosks.append(unreadable)
    said = wait_for(lambda: unreadable.lines("cannot use the client certificate"), 15)
    check("a key that is not the certificate's: one line naming the files", bool(said) and len(unreadable.lines("mqtt localhost")) == 1,
          " / ".join(unreadable.lines("mqtt localhost")))
finally:
    for k in kiosks:
        stop(k.proc)
    broker.terminate()
    broker.wait()

print(f"mqtt-tls: {passed} passed, {failed} failed")
if failed == 0:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
