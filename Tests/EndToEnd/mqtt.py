#!/usr/bin/env python3
"""The kiosk on a real MQTT broker: Debian's mosquitto, started here on a
free loopback port with a password file, and its own clients
(mosquitto_sub, mosquitto_pub). Checks Home Assistant's discovery
configuration and the retained state, commands and their replies, the
overflight start and end events, a wrong password, the broker killed and
started again (the kiosk reconnects and publishes its state anew), a
flood of commands that must not move the frame schedule, and retained
commands (not acted on; a 200 kB one passed over, not a lock-out).
Usage: mqtt.py PATH/radar-kiosk"""
import json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from recording import GET_ANSWER_LIMIT, frame_times, p99  # noqa: E402
from control import command, stop  # noqa: E402
from broker import DISCOVERY_CONFIGS, RETAINED_TOPICS, password_broker, start_mosquitto, retained as broker_retained  # noqa: E402

kiosk = sys.argv[1]
work = tempfile.mkdtemp(prefix="rk-mqtt-")
passed = failed = 0
RATE = 30
BASE = "radar-kiosk"


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    print(f"{'ok' if ok else 'FAIL'}: {name} {detail}".rstrip(), flush=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()
USER, PASSWORD = "kiosk", "s3cret-pass"
password_broker(work, PORT, USER, PASSWORD)
open(os.path.join(work, "wrong-password"), "w").write("not-it\n")
AUTH = ["-h", "127.0.0.1", "-p", str(PORT), "-u", USER, "-P", PASSWORD]


def start_broker():
    return start_mosquitto(os.path.join(work, "mosquitto.conf"), PORT, os.path.join(work, "broker.log"))


def retained(topic, expect, timeout=3):
    """What a new subscriber gets at once: the retained messages (topic -> payload)."""
    return broker_retained(AUTH, topic, expect, timeout)


def publish(topic, payload):
    subprocess.run(["mosquitto_pub", *AUTH, "-t", topic, "-m", payload], check=True, capture_output=True)


class Kiosk:
    def __init__(self, name, password_file, extra=""):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.sock, self.video = os.path.join(self.dir, "k.sock"), os.path.join(self.dir, "frames.y4m")
        conf = os.path.join(self.dir, "k.conf")
        open(conf, "w").write(f"display = headless\nsize = 160x96\nrefresh = {RATE}\nkeyboard = none\nsocket = {self.sock}\n"
                              f"mqtt.broker = 127.0.0.1:{PORT}\nmqtt.username = {USER}\nmqtt.password_file = {password_file}\n" + extra)
        self.log = open(os.path.join(self.dir, "log"), "w+")
        self.proc = subprocess.Popen([kiosk, "run", "--config", conf, "--record", self.video], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        if not wait_for(lambda: "first frame on" in self.text(), 20):
            raise RuntimeError("the kiosk did not start: " + self.text())

    def text(self):
        self.log.flush()
        return open(self.log.name).read()

    def get(self, timeout=2.0):
        started = time.time()
        try:
            return command(self.sock, '{"cmd":"get"}', timeout), time.time() - started
        except (OSError, ValueError):
            return None, timeout

    def stop(self):
        return stop(self.proc)


broker = start_broker()
k = None
watcher = None
try:
    k = Kiosk("kiosk", os.path.join(work, "password"))
    connected = wait_for(lambda: "mqtt connected" in k.text(), 15)
    # Every message on our topics and the events, as they come.
    events_log = open(os.path.join(work, "events"), "w+")
    watcher = subprocess.Popen(["mosquitto_sub", *AUTH, "-v", "-t", f"{BASE}/event", "-t", f"{BASE}/reply"],
                               stdout=events_log, stderr=subprocess.DEVNULL)
    configs = retained("homeassistant/#", DISCOVERY_CONFIGS)
    parsed = {t: json.loads(p) for t, p in configs.items()}
    kinds = sorted(t.split("/")[1] for t in parsed)
    switch = parsed.get(f"homeassistant/switch/{BASE}/screen/config", {})
    check("Home Assistant discovery: one device with sensors, a screen switch and a brightness number, retained",
          connected and len(parsed) == DISCOVERY_CONFIGS and kinds.count("sensor") == 8 and "binary_sensor" in kinds and "number" in kinds
          and switch.get("command_topic") == f"{BASE}/screen/set" and all(c.get("device", {}).get("identifiers") == [BASE] for c in parsed.values())
          and all(c.get("availability_topic", (c.get("availability") or [{}])[0].get("topic")) == f"{BASE}/status" for c in parsed.values()),
          f"({', '.join(sorted(configs))})")
    state = retained(f"{BASE}/#", RETAINED_TOPICS)
    check("the state, overhead, screen and availability are retained", state.get(f"{BASE}/state") == '{"mode":"standby"}'
          and state.get(f"{BASE}/overhead") == "OFF" and state.get(f"{BASE}/screen") == "ON" and state.get(f"{BASE}/status") == "online", str(state))

    def events():
        events_log.flush()
        return [line.split(" ", 1) for line in open(events_log.name).read().splitlines()
                if " " in line and not line.endswith(" probe")]

    # The watcher listens once a probe published on its topic comes back to it.
    def probe_seen():
        publish(f"{BASE}/reply", "probe")
        return "probe" in open(events_log.name).read()
    listening = wait_for(probe_seen, 10, step=0.2)
    publish(f"{BASE}/command", json.dumps({"cmd": "set", "state": {"mode": "overflight", "aircraft": {
        "callsign": "BAW283", "type": "B789", "altitude_ft": 3400, "distance_nm": 1.2, "bearing_deg": 90}}}))
    overhead = wait_for(lambda: retained(f"{BASE}/overhead", 1).get(f"{BASE}/overhead") == "ON", 10)
    publish(f"{BASE}/command", '{"cmd":"set","state":{"mode":"standby"}}')
    publish(f"{BASE}/command", "garbage")
    wait_for(lambda: sum(1 for t, _ in events() if t.endswith("/event")) >= 2 and sum(1 for t, _ in events() if t.endswith("/reply")) >= 3, 10)
    got = events()
    starts = [json.loads(p) for t, p in got if t.endswith("/event") and "overflight_start" in p]
    ends = [json.loads(p) for t, p in got if t.endswith("/event") and "overflight_end" in p]
    replies = [json.loads(p) for t, p in got if t.endswith("/reply")]
    check("commands on TOPIC/command: the overflight's start and end events, and the replies (an error for garbage)",
          listening and overhead and len(starts) == 1 and starts[0]["aircraft"]["callsign"] == "BAW283" and len(ends) == 1
          and ends[0]["overflight"]["callsign"] == "BAW283" and ends[0]["overflight"].get("closest_nm") == 1.2
          and [r.get("ok") for r in replies] == [True, True, False] and "malformed JSON" in replies[2].get("error", ""),
          f"({len(starts)} starts, {len(ends)} ends, replies {[r.get('ok') for r in replies]}) " + json.dumps(ends)[:200])

    publish(f"{BASE}/screen/set", "OFF")
    off = wait_for(lambda: retained(f"{BASE}/screen", 1).get(f"{BASE}/screen") == "OFF", 10)
    reply, _ = k.get()
    publish(f"{BASE}/brightness/set", "40")
    publish(f"{BASE}/screen/set", "AUTO")
    back = wait_for(lambda: retained(f"{BASE}/#", RETAINED_TOPICS).get(f"{BASE}/brightness") == "40", 10)
    check("TOPIC/screen/set and TOPIC/brightness/set: the screen goes off and back at 40 %, said on TOPIC/screen and TOPIC/brightness",
          off and reply and reply.get("screen", {}).get("power") == "off" and back and retained(f"{BASE}/screen", 1).get(f"{BASE}/screen") == "ON",
          f"(get said {reply and reply.get('screen')})")

    # The broker goes away and comes back: the kiosk reconnects and publishes its state anew
    # (this broker keeps nothing: what a new subscriber gets came after the restart).
    broker.send_signal(signal.SIGKILL)
    broker.wait(10)
    lost = wait_for(lambda: "retrying" in k.text(), 15)
    broker = start_broker()
    again = wait_for(lambda: k.text().count("mqtt connected") >= 2, 30)
    state = retained(f"{BASE}/#", RETAINED_TOPICS)
    configs = retained("homeassistant/#", DISCOVERY_CONFIGS)
    check("the broker killed and started again: the kiosk reconnects and its state and discovery are retained again",
          lost and again and state.get(f"{BASE}/status") == "online" and state.get(f"{BASE}/state") == '{"mode":"standby"}'
          and len(configs) == DISCOVERY_CONFIGS and k.proc.poll() is None,
          next((line for line in k.text().splitlines() if "retrying" in line), "(no failure logged)"))

    # A flood: 20,000 commands as fast as mosquitto_pub sends them. The kiosk
    # takes a few a turn; frames keep their schedule and `get` is answered.
    lines = os.path.join(work, "flood")
    open(lines, "w").write("".join('{"cmd":"set","state":{"mode":"%s"}}\n' % ("overflight" if i % 2 else "standby") for i in range(20000)))
    before = len(frame_times(k.video))
    flood = subprocess.Popen(["mosquitto_pub", *AUTH, "-t", f"{BASE}/command", "-l"], stdin=open(lines), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    started, latencies = time.time(), []

    def measured():
        """One `get` under the flood; done once the flood is sent and 6 s are measured."""
        reply, taken = k.get(timeout=1.0)
        latencies.append(taken if reply and reply.get("ok") else 1.0)
        return flood.poll() is not None and time.time() - started >= 6
    wait_for(measured, 60, step=0.2)
    flood.wait(60)
    times = frame_times(k.video)[before:]
    intervals = [b - a for a, b in zip(times, times[1:])]
    check("a flood of 20,000 MQTT commands: frames keep their schedule and get is answered",
          k.proc.poll() is None and len(intervals) >= 6 * RATE * 0.5 and p99(intervals) <= 2.0 / RATE and max(latencies) < GET_ANSWER_LIMIT,
          f"({len(times)} frames, interval p99 {p99(intervals) * 1000:.1f} ms, get at most {max(latencies) * 1000:.1f} ms)")
    code = k.stop()
    gone = retained(f"{BASE}/status", 1).get(f"{BASE}/status")
    check("SIGTERM: the kiosk exits 0 and says offline", code == 0 and gone == "offline", f"(exit {code}, status {gone})")

    # Retained messages left on the command topics by another client: a command
    # that would act again at every reconnect, and one 200 kB message that would
    # lock the kiosk off the broker were it refused with the connection.
    subprocess.run(["mosquitto_pub", *AUTH, "-r", "-t", f"{BASE}/command", "-m", '{"cmd":"set","state":{"mode":"overflight"}}'], check=True)
    subprocess.run(["mosquitto_pub", *AUTH, "-r", "-t", f"{BASE}/brightness/set", "-s"], input=b"9" * 200_000, check=True)
    shots = os.path.join(work, "shots")
    os.makedirs(shots)
    r = Kiosk("retained", os.path.join(work, "password"), extra=f"screenshot_dir = {shots}\n")
    try:
        connected = wait_for(lambda: "mqtt connected" in r.text(), 15)
        # 200,028 bytes: the payload, the topic and its length.
        said = wait_for(lambda: "is ignored: commands act once" in r.text() and "passing over a message of 200028 bytes" in r.text(), 15)
        still = (r.get()[0] or {}).get("state", {}).get("mode")
        publish(f"{BASE}/command", '{"cmd":"set","state":{"mode":"overflight"}}')
        acted = wait_for(lambda: (r.get()[0] or {}).get("state", {}).get("mode") == "overflight", 10)
        # A screenshot is not taken over MQTT: the reply says so, and no file is written.
        # Asked again each second until the reply comes (the subscriber may not be subscribed yet).
        replies = subprocess.Popen(["mosquitto_sub", *AUTH, "-t", f"{BASE}/reply"], stdout=subprocess.PIPE, text=True)
        heard = []
        threading.Thread(target=lambda: heard.extend(replies.stdout), daemon=True).start()
        wait_for(lambda: subprocess.run(["mosquitto_pub", *AUTH, "-t", f"{BASE}/command", "-m", '{"cmd":"screenshot","path":"mqtt.png"}']).returncode == 0
                 and any("screenshot" in line for line in heard), 10, step=1.0)
        replies.terminate()
        answer = next((line.strip() for line in heard if "screenshot" in line), "(no reply)")
        pictures = os.listdir(shots)
        check("a screenshot asked for over MQTT is refused, and no file is written",
              "not taken over MQTT" in answer and not pictures, f"{answer.strip()} {pictures}")
        # Another client puts hidden characters on the card: a bidi override in the
        # callsign, a note that looks like sd_notify lines. Refused, naming the field
        # and the character; the card keeps what it had.
        replies = subprocess.Popen(["mosquitto_sub", *AUTH, "-t", f"{BASE}/reply"], stdout=subprocess.PIPE, text=True)
        heard = []
        threading.Thread(target=lambda: heard.extend(replies.stdout), daemon=True).start()
        hidden = json.dumps({"cmd": "set", "state": {"mode": "overflight", "aircraft": {"callsign": "BAW\u202e382"}}})
        forged = json.dumps({"cmd": "set", "state": {"mode": "standby", "note": "x\nREADY=1\nSTATUS=forged"}})
        wait_for(lambda: subprocess.run(["mosquitto_pub", *AUTH, "-t", f"{BASE}/command", "-m", hidden]).returncode == 0
                 and any("U+202E" in line for line in heard), 10, step=1.0)
        subprocess.run(["mosquitto_pub", *AUTH, "-t", f"{BASE}/command", "-m", forged], check=True)
        wait_for(lambda: any("U+000A" in line for line in heard), 10)
        replies.terminate()
        errors = [json.loads(line).get("error", "") for line in heard if "U+" in line]
        kept = (r.get()[0] or {}).get("state", {})
        check("hidden characters from another client (a bidi override, sd_notify-looking lines) are refused, naming the field; the card keeps its state",
              any(e.endswith("state.aircraft.callsign: contains U+202E, a control or invisible formatting character") for e in errors)
              and any("state.note: contains U+000A" in e for e in errors)
              and kept == {"mode": "overflight"} and "STATUS=forged" not in "".join(l for l in r.text().splitlines() if "\\n" not in l),
              f"(errors {errors}, state {kept})")
        # Another client says the kiosk is offline (retained): the kiosk puts it right.
        subprocess.run(["mosquitto_pub", *AUTH, "-r", "-t", f"{BASE}/status", "-m", "offline"], check=True)
        restored = wait_for(lambda: retained(f"{BASE}/status", 1).get(f"{BASE}/status") == "online", 10)
        check("a status of offline faked by another client is put right at once, in one line",
              restored and r.text().count("by another client; saying online again") == 1,
              next((l for l in r.text().splitlines() if "another client" in l), "(nothing said)"))
        # Another client rewrites the kiosk's discovery: its screen switch pointed
        # elsewhere, and a button that was never the kiosk's added to its device.
        ours = retained(f"homeassistant/switch/{BASE}/screen/config", 1).get(f"homeassistant/switch/{BASE}/screen/config")
        subprocess.run(["mosquitto_pub", *AUTH, "-r", "-t", f"homeassistant/switch/{BASE}/screen/config",
                        "-m", json.dumps({"name": "Owned", "command_topic": "elsewhere/set", "device": {"identifiers": [BASE]}})], check=True)
        subprocess.run(["mosquitto_pub", *AUTH, "-r", "-t", f"homeassistant/button/{BASE}/quit/config",
                        "-m", json.dumps({"name": "Quit", "command_topic": f"{BASE}/command", "payload_press": '{"cmd":"quit"}',
                                          "device": {"identifiers": [BASE]}})], check=True)

        def discovery():
            return retained(f"homeassistant/+/{BASE}/+/config", DISCOVERY_CONFIGS + 1, 2)
        put_back = wait_for(lambda: discovery().get(f"homeassistant/switch/{BASE}/screen/config") == ours
                            and f"homeassistant/button/{BASE}/quit/config" not in discovery(), 10)
        check("discovery faked by another client (a switch rewired, a quit button added to the kiosk's device) is put back and the extra removed, in one line",
              ours and put_back and len(discovery()) == DISCOVERY_CONFIGS and r.text().count("changed the kiosk's Home Assistant discovery") == 1,
              f"({sorted(discovery())}) " + next((l for l in r.text().splitlines() if "discovery (" in l), "(nothing said)"))
        check("retained commands are not acted on, a 200 kB one is passed over, and the next command is taken",
              connected and said and still == "standby" and acted and r.text().count("mqtt connected") == 1,
              f"(standby before: {still}, acted {bool(acted)}) " + " / ".join(l.replace("radar-kiosk: ", "") for l in r.text().splitlines() if "mqtt" in l and "broker " not in l))
        # Another client takes the kiosk's client id, again each time the kiosk takes
        # it back: the broker throws one off for the other. The kiosk's backoff keeps
        # doubling (a connection that lasts under a minute is no success), so the two
        # do not fight every second.
        def field(text):
            return len(text).to_bytes(2, "big") + text.encode()

        def connect_packet(client_id):
            body = field("MQTT") + bytes([4, 0xC2]) + (60).to_bytes(2, "big") + field(client_id) + field(USER) + field(PASSWORD)
            return bytes([0x10, len(body)]) + body
        thief_stop, thefts = threading.Event(), []

        def thief():
            while not thief_stop.is_set():
                try:
                    s = socket.create_connection(("127.0.0.1", PORT), 2)
                    s.sendall(connect_packet(BASE))
                    thefts.append(time.time())
                    s.settimeout(0.5)
                    while not thief_stop.is_set():
                        try:
                            if not s.recv(4096):
                                break
                        except socket.timeout:
                            continue
                    s.close()
                except OSError:
                    thief_stop.wait(0.1)
        connects_before = r.text().count("mqtt connected")
        threading.Thread(target=thief, daemon=True).start()
        started = time.time()
        wait_for(lambda: time.time() - started >= 20 or r.proc.poll() is not None, 30, step=1.0)
        thief_stop.set()
        connects = r.text().count("mqtt connected") - connects_before
        check("a client taking the kiosk's client id: they do not throw each other off every second (backoff doubling)",
              r.proc.poll() is None and 1 <= connects <= 6 and len(thefts) >= 2, f"({connects} kiosk connections and {len(thefts)} thefts in 20 s)")
        back = wait_for(lambda: r.text().count("mqtt connected") > connects_before + connects, 70)
        check("the thief gone, the kiosk connects again", back, r.text().strip().splitlines()[-1])
    finally:
        r.stop()
        for topic in ("command", "brightness/set"):
            subprocess.run(["mosquitto_pub", *AUTH, "-r", "-n", "-t", f"{BASE}/{topic}"], check=True)

    # With a feed: TOPIC/feeds says each source and whether its data is coming in, retained.
    feed_dir = os.path.join(work, "feed-files")
    os.makedirs(feed_dir)
    capture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FeedTests", "Fixtures", "readsb_overirvine_170ac.json")
    aircraft = os.path.join(feed_dir, "aircraft.json")
    shutil.copy(capture, aircraft)
    k = Kiosk("feed", os.path.join(work, "password"), extra=f"feed = {aircraft}\nstation = 33.635029,-117.842218\n")

    def feeds():
        text = retained(f"{BASE}/feeds", 1).get(f"{BASE}/feeds")
        return json.loads(text) if text else None
    live = wait_for(lambda: feeds() == [{"name": aircraft, "live": True}], 15)
    os.unlink(aircraft)
    gone_feed = wait_for(lambda: feeds() == [{"name": aircraft, "live": False}], 15)
    check("TOPIC/feeds: the source and whether its data is coming in, retained (live, then not once its file is gone)",
          live and gone_feed, f"(now {feeds()})")
    k.stop()

    # The wrong password: said once, in one line; the kiosk runs on.
    k = Kiosk("wrong", os.path.join(work, "wrong-password"))
    said = wait_for(lambda: "the broker refused" in k.text(), 15)
    check("a wrong password is said in one line and the kiosk runs on", said and k.proc.poll() is None
          and k.text().count("the broker refused") == 1,
          next((line for line in k.text().splitlines() if "mqtt" in line and "refused" in line), k.text()[-200:]))
except Exception as error:
    check("the MQTT scenario ran to the end", False, repr(error)[:300] + (" | " + k.text()[-300:] if k else ""))
finally:
    if k:
        k.stop()
    if watcher:
        watcher.kill()
    broker.kill()
print(f"mqtt: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
