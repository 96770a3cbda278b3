#!/usr/bin/env python3
"""The kiosk on a real mosquitto for minutes on end, with every hostile
client at once: a flood of commands on its command topic (bad JSON, a
message over 64 KiB, newlines and sd_notify-looking text, bidi and control
characters, screenshots, absurd brightness and screen values), retained
commands, an `offline` faked on its status and its Home Assistant discovery
rewritten (and a button added to its device), and its client id taken over
every 30 s. Its feed has traffic around (none overhead), so the dial sweeps
and every frame is drawn. In each 10 s window: alive, the frame interval's
p99 within 2x the period, `get` within 250 ms, resident memory under the
unit's MemoryHigh (96 MiB), no screenshot written; over the run: memory does
not grow, the log does not grow with the flood, and the kiosk is online on
its broker at the end with only its own discovery.
Usage: mqtt-soak.py PATH/radar-kiosk [--minutes N]"""
import collections, json, math, os, re, shutil, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from recording import GET_ANSWER_LIMIT, p99  # noqa: E402
from control import command, stop  # noqa: E402
from broker import DISCOVERY_CONFIGS, start_mosquitto, retained  # noqa: E402
from mqttwire import publish, remaining_length  # noqa: E402

kiosk = sys.argv[1]
minutes = float(sys.argv[sys.argv.index("--minutes") + 1]) if "--minutes" in sys.argv else 1.0
work = tempfile.mkdtemp(prefix="rk-mqtt-soak-")
RATE = 30
PERIOD = 1.0 / RATE
WINDOW = 10.0
MEMORY_HIGH_MIB = 96
STATION = (51.47, -0.4543)
BASE = "radar-kiosk"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    print(f"{'ok' if ok else 'FAIL'}: {name} {detail}".rstrip(), flush=True)


server = socket.socket()
server.bind(("127.0.0.1", 0))
PORT = server.getsockname()[1]
server.close()
os.chmod(work, 0o755)
open(os.path.join(work, "mosquitto.conf"), "w").write(f"listener {PORT} 127.0.0.1\nallow_anonymous true\npersistence false\n")
broker = start_mosquitto(os.path.join(work, "mosquitto.conf"), PORT, os.path.join(work, "broker.log"))
AUTH = ["-h", "127.0.0.1", "-p", str(PORT)]


# ---------------------------------------------------------------- a raw MQTT 3.1.1 client, to misbehave with

def string(text):
    data = text.encode() if isinstance(text, str) else text
    return len(data).to_bytes(2, "big") + data


def connect(client_id):
    """A connected socket after CONNECT/CONNACK, or None."""
    try:
        s = socket.create_connection(("127.0.0.1", PORT), 2)
        body = string("MQTT") + b"\x04\x02" + (60).to_bytes(2, "big") + string(client_id)
        s.sendall(b"\x10" + remaining_length(len(body)) + body)
        if s.recv(4)[:1] != b"\x20":
            s.close()
            return None
        return s
    except OSError:
        return None


COMMANDS = [publish(f"{BASE}/command", p) for p in [
    "{not json", "[1,2,3]", '{"cmd":"nonsense"}', '{"cmd":"get"}', '{"cmd":"screenshot"}',
    '{"cmd":"screenshot","file":"../../etc/x.png"}',
    '{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"AB\\nSTATUS=evil\\nSTOPPING=1"}}}',
    '{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"BA\u202eW283"}}}',
    '{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"X","altitude_ft":1e308}}}',
    '{"cmd":"show","text":"' + "\u0301" * 5000 + '"}',
    "x" * 60_000, "y" * 200_000, b"\xff\xfe\x00\x01" * 100,
]] + [publish(f"{BASE}/brightness/set", p) for p in ["NaN", "1e308", "-5", "50", "abc"]] \
    + [publish(f"{BASE}/screen/set", p) for p in ["ON", "maybe", "\n" * 100]]
sent = {"commands": 0, "takeovers": 0, "fakes": 0}


def flood(stop):
    s = None
    while not stop.is_set():
        s = s or connect("soak-flood")
        if not s:
            stop.wait(0.5)
            continue
        try:
            for message in COMMANDS:
                s.sendall(message)
                sent["commands"] += 1
            s.setblocking(False)
            try:
                while s.recv(65536):
                    pass
            except BlockingIOError:
                pass
            s.setblocking(True)
        except OSError:
            s.close()
            s = None
        stop.wait(0.02)


def tamper(stop):
    """Retained commands, a faked offline, faked discovery, an oversized retained message, and the kiosk's client id taken over."""
    rounds = 0
    while not stop.wait(5.0):
        rounds += 1
        s = connect("soak-tamper")
        if s:
            try:
                s.sendall(publish(f"{BASE}/status", "offline", retain=True))
                # Retained, so each reconnect is offered them (and must not act on them); harmless
                # when they arrive live: an OFF or an OVERFLIGHT would be obeyed (any client may
                # give them) and stop the sweep, leaving no frames to measure.
                s.sendall(publish(f"{BASE}/command", '{"cmd":"set","state":{"mode":"standby"}}', retain=True))
                s.sendall(publish(f"{BASE}/screen/set", "ON", retain=True))
                s.sendall(publish(f"homeassistant/switch/{BASE}/screen/config", '{"name":"Owned","command_topic":"x/set"}', retain=True))
                s.sendall(publish(f"homeassistant/button/{BASE}/quit{rounds % 50}/config", '{"name":"Quit","command_topic":"' + BASE + '/command"}', retain=True))
                if rounds % 4 == 0:
                    s.sendall(publish(f"{BASE}/command", "z" * 300_000, retain=True))
                s.sendall(b"\xe0\x00")
                sent["fakes"] += 1
            except OSError:
                pass
            s.close()
        if rounds % 6 == 0:
            thief = connect(BASE)
            if thief:
                sent["takeovers"] += 1
                stop.wait(2.0)
                thief.close()


# ---------------------------------------------------------------- the feed: traffic around, none overhead

feed = os.path.join(work, "aircraft.json")


def write_feed(stop):
    """Forty aircraft circling 8 to 28 NM out, rewritten every second until `stop`; once when it is already set."""
    while True:
        now = time.time()
        aircraft = []
        for i in range(40):
            angle = (now / 60 + i / 40) * 2 * math.pi
            distance = 8 + i * 0.5
            aircraft.append({"hex": f"{0x400000 + i:06x}", "flight": f"SOK{i:03d}", "alt_baro": 20000 + i * 100, "gs": 300,
                             "track": (math.degrees(angle) + 90) % 360, "seen_pos": 0.5,
                             "lat": STATION[0] + distance / 60 * math.cos(angle),
                             "lon": STATION[1] + distance / 60 * math.sin(angle) / math.cos(math.radians(STATION[0]))})
        with open(feed + ".tmp", "w") as f:
            json.dump({"now": now, "aircraft": aircraft}, f)
        os.rename(feed + ".tmp", feed)
        if stop.wait(1.0):
            return


# ---------------------------------------------------------------- the kiosk

directory = os.path.join(work, "kiosk")
shots = os.path.join(directory, "shots")
os.makedirs(shots)
sock, video, conf = (os.path.join(directory, n) for n in ("k.sock", "frames.y4m", "k.conf"))
open(conf, "w").write(f"display = headless\nsize = 160x96\nrefresh = {RATE}\nkeyboard = none\nsocket = {sock}\n"
                      f"screenshot_dir = {shots}\nfeed = {feed}\nstation = {STATION[0]}, {STATION[1]}\ntraffic = yes\n"
                      f"mqtt.broker = 127.0.0.1:{PORT}\n")
log = open(os.path.join(directory, "log"), "w+")
stop_all = threading.Event()
feeder = threading.Thread(target=write_feed, args=(stop_all,), daemon=True)
once = threading.Event()
once.set()
write_feed(once)
feeder.start()
proc = subprocess.Popen([kiosk, "run", "--config", conf, "--record", video], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)


def text():
    log.flush()
    return open(log.name, errors="replace").read()


class Frames:
    """The recording's frame times, read on from where the last call stopped."""

    def __init__(self, path):
        self.path, self.pos, self.size = path, None, None

    def new_times(self):
        times = []
        with open(self.path, "rb") as f:
            if self.pos is None:
                header = f.readline()
                fields = dict((x[:1], x[1:]) for x in header.split()[1:])
                self.size = int(fields[b"W"]) * int(fields[b"H"]) * 3 // 2
                self.pos = len(header)
            f.seek(self.pos)
            while True:
                head = f.readline()
                if not head.endswith(b"\n"):
                    break
                if len(f.read(self.size)) < self.size:
                    break
                times.append(float(next(h[3:] for h in head.split() if h.startswith(b"Xt="))))
                self.pos = f.tell()
        return times


def rss_mib():
    for line in open(f"/proc/{proc.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def get():
    started = time.time()
    try:
        reply = command(sock, '{"cmd":"get"}', 1.0)
        return time.time() - started if reply and reply.get("ok") else 1.0
    except (OSError, ValueError):
        return 1.0


attackers = []
try:
    if not wait_for(lambda: "first frame on" in text() and "mqtt connected" in text(), 20):
        raise RuntimeError("the kiosk did not start on the broker: " + text()[-500:])
    frames = Frames(video)
    frames.new_times()
    attackers = [threading.Thread(target=t, args=(stop_all,), daemon=True) for t in (flood, tamper)]
    for t in attackers:
        t.start()
    windows, log_sizes, rss_by_window = [], [], []
    started = time.time()
    last_time = None
    while time.time() - started < minutes * 60 and proc.poll() is None:
        window_start = time.time()
        latencies, rss = [], 0.0
        while time.time() - window_start < WINDOW and proc.poll() is None:
            latencies.append(get())
            rss = max(rss, rss_mib())
            time.sleep(0.2)
        times = frames.new_times()
        if last_time is not None:
            times = [last_time] + times
        last_time = times[-1] if times else last_time
        intervals = [b - a for a, b in zip(times, times[1:])]
        windows.append((len(intervals), p99(intervals), max(latencies, default=1.0), rss, len(os.listdir(shots))))
        rss_by_window.append(rss)
        log_sizes.append(os.path.getsize(log.name))
        n, interval, worst_get, rss, shot_count = windows[-1]
        print(f"  {time.time() - started:6.0f} s: {n} frames, interval p99 {interval * 1000:.1f} ms, get at most {worst_get * 1000:.1f} ms, "
              f"RSS {rss:.1f} MiB, {sent['commands']} commands, {sent['takeovers']} takeovers", flush=True)
    stop_all.set()
    for t in attackers:
        t.join(10)
    alive = proc.poll() is None
    bad = [w for w in windows if not (w[0] >= WINDOW * RATE * 0.5 and w[1] <= 2 * PERIOD and w[2] < GET_ANSWER_LIMIT
                                      and w[3] < MEMORY_HIGH_MIB and w[4] == 0)]
    check(f"{minutes:g} min of command floods, retained commands, a faked offline and client-id takeovers: every 10 s window within its bounds",
          alive and windows and not bad,
          f"(alive {alive}, {len(windows)} windows, {len(bad)} outside: {bad[:3]}; worst interval p99 "
          f"{max((w[1] for w in windows), default=0) * 1000:.1f} ms, worst get {max((w[2] for w in windows), default=0) * 1000:.1f} ms, "
          f"RSS at most {max(rss_by_window, default=0):.1f} MiB; {sent['commands']} commands, {sent['fakes']} fakes, {sent['takeovers']} takeovers)")
    half = len(rss_by_window) // 2
    grew = max(rss_by_window[half:], default=0) - max(rss_by_window[:half] or [0], default=0)
    check("memory does not grow over the run (the second half's peak within 8 MiB of the first's)", len(rss_by_window) >= 2 and grew <= 8,
          f"({grew:+.1f} MiB)")
    # The flood is said once a connection at most, not once a message: the log grows by the takeovers' reconnects, not by the commands.
    growth = (log_sizes[-1] - log_sizes[0]) if len(log_sizes) >= 2 else 0
    commonest = collections.Counter(re.sub(r"[0-9]+", "N", line) for line in text().splitlines()).most_common(3)
    check("the log does not grow with the flood (under 200 bytes a second after the first window)",
          growth < 200 * (len(log_sizes) - 1) * WINDOW and "STOPPING=1" not in text(), f"({growth} bytes over {len(log_sizes) - 1} windows; most said: {commonest})")
    online = wait_for(lambda: retained(AUTH, f"{BASE}/status", 1, 3).get(f"{BASE}/status") == "online", 30)
    check("online on its broker at the end, in spite of the faked offline and the takeovers",
          online and alive and sent["takeovers"] >= (1 if minutes >= 0.75 else 0), f"({sent['takeovers']} takeovers)")
    configs = wait_for(lambda: (lambda c: c if len(c) == DISCOVERY_CONFIGS and "Owned" not in "".join(c.values()) else None)(
        retained(AUTH, f"homeassistant/+/{BASE}/+/config", DISCOVERY_CONFIGS + 1, 2)), 20)
    check("only the kiosk's own discovery is left at the end, in spite of the fakes", bool(configs),
          f"({sorted(retained(AUTH, f'homeassistant/+/{BASE}/+/config', 60, 2))[:12]})")
finally:
    stop_all.set()
    stop(proc)
    broker.terminate()
    broker.wait(10)
    shutil.rmtree(work, ignore_errors=True)

print(f"mqtt soak: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
