#!/usr/bin/env python3
"""The kiosk against a hostile world: socket and stdin clients that leave
early or flood, SBS-1 and HTTP servers on the loopback that flood, send
absurd numbers or never answer, a resolver that never answers, odd files,
signals during start-up. Under each, the headless kiosk must keep drawing at
its refresh (frame interval p99 within 2x the period, read from the frame
times of its own recording), answer `get` on its socket within 100 ms, and
stay under 64 MiB resident. Every wait has a time limit.
Usage: hostile.py PATH/radar-kiosk"""
import json, math, os, random, re, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from recording import GET_ANSWER_LIMIT, frame_times, p99  # noqa: E402
from control import command, stop  # noqa: E402
from mqttwire import publish as mqtt_publish, remaining_length as mqtt_remaining_length  # noqa: E402

kiosk = sys.argv[1]
passed = failed = 0
work = tempfile.mkdtemp(prefix="rk-hostile-")
RATE = 30
PERIOD = 1.0 / RATE
STATION = (51.47, -0.4543)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {name} {detail}".rstrip(), flush=True)
    else:
        failed += 1
        print(f"FAIL: {name} {detail}".rstrip(), flush=True)




class Kiosk:
    """The headless kiosk in real time at 30 Hz, recording its frames (with their times), with a control socket."""

    def __init__(self, name, extra=(), conf="", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=None, prefix=()):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.sock = os.path.join(self.dir, "control.sock")
        self.video = os.path.join(self.dir, "frames.y4m")
        self.conf = os.path.join(self.dir, "k.conf")
        open(self.conf, "w").write(f"display = headless\nsize = 160x96\nrefresh = {RATE}\nkeyboard = none\n"
                                   f"socket = {self.sock}\nscreenshot_dir = {self.dir}\n{conf}")
        self.log = open(os.path.join(self.dir, "log"), "w+")
        self.proc = subprocess.Popen(list(prefix) + [kiosk, "run", "--config", self.conf, "--record", self.video, *extra],
                                     stdin=stdin, stdout=stdout, stderr=self.log, env=env)
        if not wait_for(lambda: os.path.exists(self.sock) and self.first_frame(), 20):
            raise RuntimeError(f"{name}: the kiosk did not start: {self.text()}")

    def text(self):
        self.log.flush()
        return open(self.log.name).read()

    def first_frame(self):
        return "first frame on" in self.text()

    def command(self, line, timeout=5.0):
        """Sends one command line on the socket; returns its reply (a dict), or raises."""
        return command(self.sock, line, timeout)

    def get(self, timeout=2.0):
        """Sends {"cmd":"get"} on the socket; returns (reply, seconds) or (None, timeout)."""
        started = time.time()
        try:
            return self.command('{"cmd":"get"}', timeout) or None, time.time() - started
        except (OSError, ValueError):
            return None, timeout

    def rss_mib(self):
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0

    def frame_times(self):
        return frame_times(self.video)

    def stop(self):
        return stop(self.proc)


def with_kiosk(body, name, **kwargs):
    """Starts a kiosk and runs `body(k)` with it, stopping it after: a kiosk that dies or
    never starts fails its section, and the other sections still run."""
    k = None
    try:
        k = Kiosk(name, **kwargs)
        body(k)
    except Exception as error:
        check(f"the {name} section ran to the end", False, repr(error)[:300])
    finally:
        if k:
            k.stop()


# Well under the unit's MemoryMax=128M: about 46 MiB here while a 10 MiB file is
# parsed every second, 65 MiB seen once under two busy loops (allocator arenas
# of the parsing threads); a leak or a pile-up of parses passes this in seconds.
MEMORY_LIMIT_MIB = 96


def under_attack(name, k, attack, seconds=6.0):
    """Runs `attack(stop_event)` in a thread for `seconds` while measuring the kiosk: frames, get latency, memory."""
    stop = threading.Event()
    thread = threading.Thread(target=attack, args=(stop,), daemon=True)
    before = len(k.frame_times())
    started = time.time()
    thread.start()
    latencies, rss = [], 0.0
    while time.time() - started < seconds:
        reply, seconds_taken = k.get(timeout=1.0)
        latencies.append(seconds_taken if reply and reply.get("ok") else 1.0)
        rss = max(rss, k.rss_mib())
        time.sleep(0.2)
    stop.set()
    thread.join(10)
    alive = k.proc.poll() is None
    times = k.frame_times()[before:]
    intervals = [b - a for a, b in zip(times, times[1:])]
    worst_get = max(latencies) if latencies else 1.0
    check(f"{name}: the kiosk keeps drawing, answering and within its memory",
          alive and len(intervals) >= seconds * RATE * 0.5 and p99(intervals) <= 2 * PERIOD and worst_get < GET_ANSWER_LIMIT and rss < MEMORY_LIMIT_MIB,
          f"(alive {alive}, {len(times)} frames, interval p99 {p99(intervals) * 1000:.1f} ms, get at most {worst_get * 1000:.1f} ms, "
          f"RSS at most {rss:.1f} MiB)")
    return alive


def serve_tcp(handler):
    """A loopback TCP server running `handler(connection, stop)` for each client; returns (port, stop event)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except socket.timeout:
                continue
            threading.Thread(target=handler, args=(conn, stop), daemon=True).start()
        server.close()
    threading.Thread(target=loop, daemon=True).start()
    return server.getsockname()[1], stop


def aircraft_json(aircraft, now=None):
    return json.dumps({"now": now or time.time(), "messages": 1, "aircraft": aircraft}).encode()


# ---------------------------------------------------------------- clients that leave or flood


def clients_section(k):
    def leave_early(stop):
        while not stop.is_set():
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(k.sock)
                s.sendall(b'{"cmd":"get"}\n' * 20)
            except OSError:
                pass
            s.close()   # before reading: the kiosk's replies meet a closed socket (EPIPE, once SIGPIPE)
            stop.wait(0.005)   # 200 such clients a second: misbehaving, not a denial of service
    under_attack("socket clients that send get and close before reading (SIGPIPE)", k, leave_early, 4)

    idle = []
    for _ in range(16):
        s = socket.socket(socket.AF_UNIX)
        s.connect(k.sock)
        idle.append(s)
    late = socket.socket(socket.AF_UNIX)
    late.connect(k.sock)
    late.close()   # the 17th client is told "busy" and is gone before reading it
    # An 18th, accepted after it, is answered (busy too, while the 16 stay): the kiosk lived through the 17th.
    answered = wait_for(lambda: k.get()[0] is not None, 5)
    for s in idle:
        s.close()
    check("a 17th client leaving before its busy reply does not kill the kiosk", k.proc.poll() is None and answered)

    def newline_flood(stop):
        s = socket.socket(socket.AF_UNIX)
        s.connect(k.sock)
        s.setblocking(False)
        chunk = b"\n" * 65536
        while not stop.is_set():
            try:
                s.send(chunk)   # never reads its replies
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                s.close()
                s = socket.socket(socket.AF_UNIX)
                s.connect(k.sock)
                s.setblocking(False)
        s.close()
    under_attack("a socket client flooding newlines and never reading", k, newline_flood, 6)


with_kiosk(clients_section, "clients")

# Standard input: replies at once (not block-buffered), a last command without a newline, a reader gone.
proc = subprocess.Popen([kiosk, "run", "--display", "headless", "--size", "160x96", "--refresh", str(RATE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
proc.stdin.write(b'{"cmd":"get"}\n')
proc.stdin.flush()
os.set_blocking(proc.stdout.fileno(), False)
first = wait_for(lambda: (proc.stdout.read() or b""), 5)
check("a reply on a piped stdout comes at once, not after 72 commands", b'"ok":true' in first, repr(first[:80]))
proc.stdin.write(b'{"cmd":"get"}')   # no newline, then end of input
proc.stdin.close()
last = wait_for(lambda: (proc.stdout.read() or b""), 5)
check("a last command without a newline is answered", b'"ok":true' in last, repr(last[:80]))
proc.stdout.close()   # the reader goes away
code = stop(proc, 10)
check("the kiosk exits cleanly", code == 0, f"exit {code}")

errors = open(os.path.join(work, "stdout-gone.log"), "w+")
proc = subprocess.Popen([kiosk, "run", "--display", "headless", "--size", "160x96", "--refresh", str(RATE)],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
logged = lambda text: text in open(errors.name).read()
wait_for(lambda: logged("first frame on"), 10)
proc.stdout.close()   # nobody reads standard output any more
for _ in range(50):
    proc.stdin.write(b'{"cmd":"get"}\n')
proc.stdin.flush()
wait_for(lambda: logged("standard output is not taking replies") or proc.poll() is not None, 10)
alive = proc.poll() is None
proc.send_signal(signal.SIGTERM)
code = proc.wait(10)
check("a stdout reader that went away does not kill the kiosk (SIGPIPE)", alive and code == 0, f"alive {alive}, exit {code}")

# ---------------------------------------------------------------- feeds
def sbs_flood(conn, stop):
    rng = random.Random(1)
    try:
        while not stop.is_set():
            lines = "".join(f"MSG,3,1,1,{rng.randrange(0x100000, 0xFFFFFF):06X},1,,,,,,3000,,,{40 + rng.random():.4f},{10 + rng.random():.4f},,,0,0,0,0\n"
                            for _ in range(500))
            conn.sendall(lines.encode())
    except OSError:
        pass
    conn.close()


def against_receiver(name, handler, feed, what, seconds):
    """A kiosk fed by a loopback receiver that runs `handler` for each connection, measured for `seconds`."""
    port, stop = serve_tcp(handler)
    with_kiosk(lambda k: under_attack(what, k, lambda attack: attack.wait(), seconds), name,
               conf=f"feed = {feed.format(port=port)}\nstation = {STATION[0]}, {STATION[1]}\n")
    stop.set()


against_receiver("sbs-flood", sbs_flood, "sbs://127.0.0.1:{port}", "an SBS-1 server sending lines at full speed, a million addresses", 8)


def absurd_numbers(conn, stop):
    # Overhead (at the station) with numbers no aircraft has: they must not kill the kiosk.
    lat, lon = STATION
    lines = [f"MSG,3,1,1,4CA123,1,,,,,BAW283,3000,nan,inf,{lat},{lon},,,0,0,0,0",
             f"MSG,4,1,1,4CA123,1,,,,,,,1e300,0x3C,,,,,0,0,0,0",
             f"MSG,4,1,1,4CA123,1,,,,,,-inf,9e99,-1e999,,,,,0,0,0,0",
             # Far away, with a callsign that would write its own lines into the journal.
             f"MSG,3,1,1,4CA124,1,,,,,\x1bSTOPPING=1,3000,,,{lat - 1},{lon},,,0,0,0,0"]
    try:
        while not stop.is_set():
            conn.sendall(("\n".join(lines) + "\n").encode())
            stop.wait(0.5)
    except OSError:
        pass
    conn.close()


port, stop_absurd = serve_tcp(absurd_numbers)


def absurd_section(k):
    state = wait_for(lambda: (k.get()[0] or {}).get("state", {}).get("mode") == "overflight" and k.get()[0], 10)
    aircraft = (state or {}).get("state", {}).get("aircraft", {})
    check("NaN, infinite and huge SBS numbers: the aircraft is shown with those values unknown, the kiosk alive",
          k.proc.poll() is None and aircraft.get("callsign") == "BAW283" and "ground_speed_kt" not in aircraft and aircraft.get("altitude_ft") == 3000,
          json.dumps(state))


with_kiosk(absurd_section, "absurd", conf=f"feed = sbs://127.0.0.1:{port}\nstation = {STATION[0]}, {STATION[1]}\n")
stop_absurd.set()

feed_dir = os.path.join(work, "feed")
os.makedirs(feed_dir)
feed_path = os.path.join(feed_dir, "aircraft.json")


def put(data):
    open(feed_path + ".tmp", "wb").write(data)
    os.rename(feed_path + ".tmp", feed_path)


put(aircraft_json([{"hex": "4ca123", "flight": "\nSTOPPING=1\n", "r": "G-EUUA", "alt_baro": 3000, "gs": 1e300,
                    "lat": STATION[0], "lon": STATION[1], "seen_pos": 1}]))
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify_path = os.path.join(work, "notify.sock")
notify.bind(notify_path)
notify.settimeout(0.2)


def file_feed_section(k):
    state = wait_for(lambda: (k.get()[0] or {}).get("state", {}).get("mode") == "overflight" and k.get()[0], 10)
    aircraft = (state or {}).get("state", {}).get("aircraft", {})
    check("1e300 for gs in aircraft.json: shown as unknown, the kiosk alive", k.proc.poll() is None and aircraft and "ground_speed_kt" not in aircraft,
          json.dumps(state))
    messages = []
    while True:
        try:
            messages.append(notify.recv(4096).decode())
        except socket.timeout:
            break
    statuses = [m for m in messages if m.startswith("STATUS=") or "\nSTATUS=" in m]
    check("a callsign with newlines never reaches sd_notify or the log as lines of its own",
          statuses and not any("STOPPING=1" in m for m in messages) and "STOPPING=1" not in k.text(),
          repr(statuses[-1:]))


with_kiosk(file_feed_section, "file-feed", conf=f"feed = {feed_path}\nstation = {STATION[0]}, {STATION[1]}\n", env=dict(os.environ, NOTIFY_SOCKET=notify_path))
notify.close()

# A receiver's file with 100,000 aircraft (none near), rewritten every second: parsed off the loop, streamed.
big = [{"hex": f"{0x100000 + i:06x}", "flight": f"T{i:05d}", "alt_baro": 30000, "gs": 400, "lat": 10 + (i % 1000) / 1000,
        "lon": 20 + (i // 1000) / 1000, "seen_pos": 1} for i in range(100_000)]
data = aircraft_json(big)
put(data)


def big_file_section(k):
    def rewrite_big(stop):
        while not stop.is_set():
            put(data)
            stop.wait(1.0)
    under_attack(f"a {len(data) >> 20} MiB aircraft.json with 100,000 aircraft, rewritten every second", k, rewrite_big, 8)


with_kiosk(big_file_section, "big-file", conf=f"feed = {feed_path}\nstation = {STATION[0]}, {STATION[1]}\n")


# A receiver's web server answering 3 MiB every second: Python's own
# http.server, which (as lighttpd and nginx do) says nothing until it has the
# whole request, serving a file rewritten every second.
http_root = os.path.join(work, "http-big")
os.makedirs(os.path.join(http_root, "data"))
http_body = aircraft_json([{"hex": f"{0x100000 + i:06x}", "alt_baro": 30000, "lat": 10.0, "lon": 20.0} for i in range(60_000)])
http_file = os.path.join(http_root, "data", "aircraft.json")


def put_http_body():
    with open(http_file + ".tmp", "wb") as f:
        f.write(http_body)
    os.rename(http_file + ".tmp", http_file)


put_http_body()
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    http_port = probe.getsockname()[1]
http_log = open(os.path.join(work, "http-big.log"), "w+")
http_server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", str(http_port), "--bind", "127.0.0.1", "--directory", http_root],
                               stdout=http_log, stderr=http_log)


def http_server_up():
    try:
        socket.create_connection(("127.0.0.1", http_port), timeout=0.5).close()
        return True
    except OSError:
        return False


def http_section(k):
    def rewrite(stop):
        while not stop.is_set():
            put_http_body()
            stop.wait(1.0)
    under_attack(f"an HTTP receiver (http.server) answering {len(http_body) >> 20} MiB every second", k, rewrite, 6)
    http_log.flush()
    answered = len(re.findall(r'"GET /data/aircraft.json HTTP/1\.[01]" 200', open(http_log.name).read()))
    check(f"the kiosk fetched the {len(http_body) >> 20} MiB answer from http.server again and again", answered >= 3, f"({answered} answers)")


check("http.server starts", wait_for(http_server_up, 20))
with_kiosk(http_section, "http", conf=f"feed = http://127.0.0.1:{http_port}/data/aircraft.json\nstation = {STATION[0]}, {STATION[1]}\n")
http_server.terminate()
http_server.wait(10)

# A resolver that never answers (a board booted offline with feed = http://piaware.local/...):
# the kiosk in a mount namespace whose resolv.conf names a loopback server that swallows queries.
resolv = os.path.join(work, "resolv.conf")
open(resolv, "w").write(f"nameserver 127.0.0.1\noptions timeout:5 attempts:4\n")
dns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
can_blackhole = False
if os.geteuid() != 0:
    # A mount namespace needs root: announced, and a failure under CI.
    print("skip: the resolver test needs root (a mount namespace for resolv.conf)", flush=True)
    if os.environ.get("CI"):
        check("the resolver test ran (CI runs as root)", False)
else:
    try:
        dns.bind(("127.0.0.1", 53))
        can_blackhole = True
    except OSError as e:
        check(f"the resolver test can listen on 127.0.0.1:53 ({e})", False)
if can_blackhole:
    k = None
    try:
        k = Kiosk("dns", conf=f"feed = http://never-answers.example/data/aircraft.json\nstation = {STATION[0]}, {STATION[1]}\n",
                  prefix=["unshare", "-m", "sh", "-c", f"mount --bind {resolv} /etc/resolv.conf && exec \"$0\" \"$@\""])
        under_attack("a name lookup against a resolver that never answers", k, lambda stop: stop.wait(), 8)
    except Exception as error:
        check("the section ran to the end", False, repr(error)[:300])
    finally:
        if k:
            k.stop()
dns.close()

# Standing data copied over in place while the kiosk looks callsigns up in it
# (`cp new.rksd standing-data.rksd` truncates the mapped file first): touching
# a page that is gone was a SIGBUS that killed the kiosk. Now: one line, the
# card without routes, the kiosk drawing on.
here = os.path.dirname(os.path.abspath(__file__))
standing_source = os.path.join(here, "..", "..", "Data", "standing-data.rksd")
standing_live = os.path.join(work, "standing-data.rksd")
shutil.copyfile(standing_source, standing_live)
lookups_dir = os.path.join(work, "lookups")
os.makedirs(lookups_dir, exist_ok=True)


def callsigns(round_number):
    """The Irvine capture with every callsign new, so each snapshot asks the standing data again."""
    data = json.load(open(os.path.join(here, "..", "FeedTests", "Fixtures", "readsb_overirvine_170ac.json")))
    for i, entry in enumerate(data["aircraft"]):
        entry["flight"] = f"BAW{(round_number * 200 + i) % 10000:04d}"
        entry["t"] = ["B789", "A320", "B738", "E190"][i % 4]
    data["now"] = time.time()
    return json.dumps(data)


def put_lookups(text):
    with open(os.path.join(lookups_dir, ".a.tmp"), "w") as f:
        f.write(text)
    os.rename(os.path.join(lookups_dir, ".a.tmp"), os.path.join(lookups_dir, "aircraft.json"))


def standing_section(k):
    def overwrite(stop):
        n = 0
        original = open(standing_source, "rb").read()
        while not stop.is_set():
            # In place, as cp does it on an SD card: truncated, then written over half a second.
            with open(standing_live, "r+b") as f:
                f.truncate(0)
                for start in range(0, len(original), 256 << 10):
                    f.write(original[start:start + (256 << 10)])
                    f.flush()
                    n += 1
                    put_lookups(callsigns(n))
                    stop.wait(0.02)
    under_attack("the standing data copied over in place while callsigns are looked up", k, overwrite, 6)
    said = k.text().count("was changed in place while in use")
    check("the standing data changed under the kiosk is one line, not a SIGBUS", said == 1 and k.proc.poll() is None,
          f"({said} lines; exit {k.proc.poll()}) " + k.text()[-300:])


put_lookups(callsigns(0))
# Irvine, where the capture's LXJ440 is overhead: its card is what asks for routes and names.
with_kiosk(standing_section, "standing", conf=f"feed = {lookups_dir}/aircraft.json\nstation = 33.635029, -117.842218\n"
                                              f"standing_data = {standing_live}\n")

# A SIGHUP storm with a large configuration (half a MiB of comments): a
# reload parses the file on the loop, so reloads are paced to one a second
# and the last is kept; a 15 MB file is refused outright (exit 2, one line).
def storm_section(k):
    def storm(stop):
        while not stop.is_set():
            for _ in range(50):
                os.kill(k.proc.pid, signal.SIGHUP)
            stop.wait(0.001)
    before = k.text().count("configuration reloaded")
    began = time.time()
    under_attack("a SIGHUP storm (tens of thousands a second) with a 0.5 MiB configuration", k, storm, 6)
    reloads = k.text().count("configuration reloaded") - before
    took = time.time() - began
    check(f"the storm is paced: {reloads} reloads in {took:.1f} s", 1 <= reloads <= took + 2, k.text()[-200:])
    # The storm over: one more edit and one SIGHUP, and it takes effect.
    settled = k.text().count("configuration reloaded")
    with open(k.conf, "a") as f:
        f.write("overhead.radius_nm = 2\n")
    os.kill(k.proc.pid, signal.SIGHUP)
    check("after the storm, the next edit is reloaded", wait_for(lambda: k.text().count("configuration reloaded") > settled, 5), k.text()[-200:])


with_kiosk(storm_section, "sighup-storm", conf=("# " + "x" * 1000 + "\n") * 500)


# A reload every 50 ms, the night alternately around now and away from it (a
# home-automation script toggling the schedule, say): the loop holds, and
# whatever the last file says is what the screen does, night or day.
def night_flip_section(k):
    def clock(t):
        return time.strftime("%H:%M", time.localtime(t))
    now = time.time()
    night = f"night.from = {clock(now - 3600)}\nnight.until = {clock(now + 3600)}\n"
    day = f"night.from = {clock(now + 3600)}\nnight.until = {clock(now + 7200)}\n"
    base = open(k.conf).read()

    def write(schedule):
        open(k.conf + ".next", "w").write(base + schedule)
        os.rename(k.conf + ".next", k.conf)
        os.kill(k.proc.pid, signal.SIGHUP)

    def brightness():
        reply, _ = k.get()
        return reply and reply.get("screen", {}).get("brightness")

    def flip(stop):
        turn = 0
        while not stop.is_set():
            write(night if turn % 2 else day)
            turn += 1
            stop.wait(0.05)
    under_attack("a reload every 50 ms, the night schedule alternately on and off (dimmed at night)", k, flip, 8)
    write(night)
    dimmed = wait_for(lambda: brightness() == 30, 5)
    write(day)
    lit = wait_for(lambda: brightness() == 100, 5)
    check("after the flipping, the last file's schedule holds: dimmed for a night around now, full for a day",
          dimmed and lit, f"(brightness now {brightness()}) " + k.text()[-200:])


with_kiosk(night_flip_section, "night-flip", conf="night.screen = dim\nnight.brightness = 30\n")
huge_conf = os.path.join(work, "huge.conf")
with open(huge_conf, "w") as f:
    f.write("display = headless\n" + ("# " + "x" * 1000 + "\n") * 15_000)
try:
    result = subprocess.run([kiosk, "run", "--config", huge_conf, "--frames", "300"], stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    check("a 15 MB configuration is refused at once, exit 2, one line", result.returncode == 2 and result.stderr.count(b"\n") == 1
          and b"larger than 1048576 bytes" in result.stderr, result.stderr.decode()[-200:])
except subprocess.TimeoutExpired:
    check("a 15 MB configuration is refused at once, exit 2, one line", False, "(still running after 20 s)")

# ---------------------------------------------------------------- files, paths, signals
fifo = os.path.join(work, "fifo.conf")
os.mkfifo(fifo)
try:
    result = subprocess.run([kiosk, "run", "--config", fifo], stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    check("a FIFO as the configuration file is refused at once", result.returncode == 2 and b"not a regular file" in result.stderr,
          result.stderr.decode()[-200:])
    result = subprocess.run([kiosk, "check-config", fifo], capture_output=True, timeout=10)
    check("check-config refuses a FIFO too", result.returncode == 1, result.stderr.decode()[-200:])
except subprocess.TimeoutExpired:
    check("a FIFO as the configuration file does not block", False)

# The overflight log at a FIFO nobody reads: opening it for writing blocked
# the loop, and the exit's flush with it (SIGTERM waits on the loop), for ever.
log_fifo = os.path.join(work, "overflights.fifo")
os.mkfifo(log_fifo)
fifo_log_conf = os.path.join(work, "fifo-log.conf")
with open(fifo_log_conf, "w") as f:
    f.write(f"display = headless\nsize = 160x96\nkeyboard = none\noverflight_log = {log_fifo}\n")
commands = b'{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"BAW283"}}}\n{"cmd":"set","state":{"mode":"standby"}}\n'
try:
    result = subprocess.run([kiosk, "run", "--config", fifo_log_conf, "--frames", "60"], input=commands, capture_output=True, timeout=20)
    said = result.stderr.count(b"overflight log " + log_fifo.encode())
    check("the overflight log at a FIFO: one line, and the kiosk draws and exits", result.returncode == 0 and said == 1
          and b"60 frames" in result.stderr, result.stderr.decode()[-300:])
except subprocess.TimeoutExpired:
    check("the overflight log at a FIFO does not block the kiosk", False, "(still running after 20 s)")


def screenshots_section(k):
    command = k.command
    target = os.path.join(work, "victim.txt")
    open(target, "w").write("precious\n")
    os.symlink(target, os.path.join(k.dir, "link.png"))
    os.mkfifo(os.path.join(k.dir, "fifo.png"))
    answers = {name: command(json.dumps({"cmd": "screenshot", "path": name})) for name in
               ["/proc/self/fd/2", "../escape.png", "link.png", "fifo.png"]}
    # At most one a second: asked again until the second is over.
    good = wait_for(lambda: (lambda a: a if a.get("ok") else None)(command('{"cmd":"screenshot","path":"ok.png"}')), 5) or {}
    check("screenshots: no path, no link followed, no FIFO opened, a new file written", all(not a.get("ok") for a in answers.values())
          and open(target).read() == "precious\n" and good.get("ok") and os.path.getsize(os.path.join(k.dir, "ok.png")) > 0
          and k.proc.poll() is None, json.dumps(answers))
    flood = [command('{"cmd":"screenshot","path":"x%d.png"}' % i) for i in range(5)]
    check("screenshots are limited to one a second", sum(1 for a in flood if a.get("ok")) <= 1, json.dumps(flood[:2]))
    second = subprocess.run([kiosk, "run", "--config", k.conf, "--frames", "1"], stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    check("a second kiosk does not steal the live socket", second.returncode == 1 and b"another program is serving" in second.stderr
          and k.get()[0] is not None, second.stderr.decode()[-200:])


with_kiosk(screenshots_section, "screenshots")
regular = os.path.join(work, "not-a-socket")
open(regular, "w").write("data\n")
result = subprocess.run([kiosk, "run", "--display", "headless", "--socket", regular, "--frames", "1"], stdin=subprocess.DEVNULL,
                        capture_output=True, timeout=20)
check("a regular file at the socket path is left alone", result.returncode == 1 and open(regular).read() == "data\n", result.stderr.decode()[-200:])

# A SIGTERM while the kiosk starts (fonts loading, a display opening) is handled,
# not fatal: once `run` has blocked the signal (its first act; /proc shows it
# in SigBlk) the kiosk exits cleanly, however early. Before that the process is
# still being loaded, and the default action is all there is.
def sigterm_blocked(pid):
    try:
        status = open(f"/proc/{pid}/status").read()
    except FileNotFoundError:
        return False
    blocked = int(next(l.split()[1] for l in status.splitlines() if l.startswith("SigBlk:")), 16)
    return bool(blocked & (1 << (signal.SIGTERM - 1)))
codes = []
for delay in (0.0, 0.01, 0.05):
    proc = subprocess.Popen([kiosk, "run", "--display", "headless", "--size", "160x96"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: sigterm_blocked(proc.pid) or proc.poll() is not None, 20, step=0.001)
    time.sleep(delay)   # the point of this check: a signal at these moments of start-up, not a wait for anything
    proc.send_signal(signal.SIGTERM)
    codes.append(proc.wait(10))
check("SIGTERM during start-up: a clean exit, not death by signal", codes == [0, 0, 0], str(codes))

# SIGHUP keeps the flags the kiosk was started with over the file, and applies the file's live keys.
put(aircraft_json([{"hex": "4ca123", "flight": "EZY81QK", "alt_baro": 3000, "lat": STATION[0] + 4 / 60, "lon": STATION[1], "seen_pos": 1}]))


# Hostile MQTT brokers, each a loopback TCP server speaking just enough MQTT:
# one that never answers CONNECT, one that announces a 200 MB packet, one that
# floods commands (garbage and JSON) at full speed. Each is one line, and the
# kiosk draws, answers and keeps its memory meanwhile.
CONNACK, SUBACK = b"\x20\x02\x00\x00", b"\x90\x05\x00\x01\x00\x00\x00"


def mqtt_answering(answer):
    """A broker that reads CONNECT, sends `answer` (nothing, for one that never answers) and holds the connection."""
    def handler(conn, stop):
        try:
            conn.recv(4096)
            conn.sendall(answer)
            stop.wait()
        except OSError:
            pass
        conn.close()
    return handler


mqtt_silent = mqtt_answering(b"")
mqtt_huge = mqtt_answering(CONNACK + SUBACK + b"\x30" + mqtt_remaining_length(200_000_000) + b"\x00\x05radar")
mqtt_garbage_connack = mqtt_answering(b"\x20\x05\x00\x00\xde\xad\xbe")


def mqtt_reset(conn, stop):
    # Accepted, then reset at once (SO_LINGER 0): an RST for every attempt.
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def mqtt_acknowledgement_flood(conn, stop):
    try:
        conn.recv(4096)
        conn.sendall(CONNACK)
        # Blocking sends: the kiosk's reading paces the flood (a timeout here
        # would reset the connection with the kiosk's bytes unread).
        batch = (b"\xd0\x00" + SUBACK) * 4000
        while not stop.is_set():
            conn.sendall(batch)
    except OSError:
        pass
    conn.close()


def mqtt_flood(conn, stop):
    rng = random.Random(2)
    try:
        conn.recv(4096)
        conn.sendall(CONNACK + SUBACK)
        # Standby keeps the dial sweeping: a frame every period to measure.
        while not stop.is_set():
            batch = b"".join(mqtt_publish("radar-kiosk/command", rng.choice([b'{"cmd":"get"}', b"\xff\xfe not json", b'{"cmd":"set","state":{"mode":"standby"}}',
                                                                               b'{"cmd":"screen","brightness":' + str(rng.randrange(-5, 100)).encode() + b"}"]))
                             for _ in range(500))
            conn.sendall(batch)
    except OSError:
        pass
    conn.close()


def mqtt_trickling(connack_gap, then=b""):
    """A broker that answers a byte at a time: CONNACK a byte every `connack_gap` s, then `then` a byte a second, never a PINGRESP."""
    def handler(conn, stop):
        try:
            conn.recv(4096)
            for byte in CONNACK + then:
                conn.sendall(bytes([byte]))
                if stop.wait(connack_gap if byte in CONNACK and connack_gap else 1.0):
                    break
            stop.wait()
        except OSError:
            pass
        conn.close()
    return handler


def against_broker(name, handler, what, line, seconds):
    """A kiosk whose MQTT broker runs `handler` for each connection: measured for `seconds`, then `line` must be in its log once."""
    port, stop = serve_tcp(handler)

    def body(k):
        under_attack(what, k, lambda attack: attack.wait(), seconds)
        lines = [l for l in k.text().splitlines() if "mqtt" in l and f"127.0.0.1:{port}" in l and "topics" not in l or "mqtt connected" in l]
        check(f"{what}: one line saying '{line}'", sum(line in l for l in lines) == 1 and k.proc.poll() is None, " / ".join(lines)[-400:])
    with_kiosk(body, name, conf=f"mqtt.broker = 127.0.0.1:{port}\n")
    stop.set()


against_broker("mqtt-silent", mqtt_silent, "an MQTT broker that never answers CONNECT", "no answer to CONNECT in 10 s", 12)
against_broker("mqtt-huge", mqtt_huge, "an MQTT broker announcing a 200 MB message", "passing over a message of 200000000 bytes", 6)
against_broker("mqtt-connack", mqtt_garbage_connack, "an MQTT broker answering CONNECT with a garbled CONNACK", "CONNACK of 5 bytes", 6)
against_broker("mqtt-reset", mqtt_reset, "an MQTT broker resetting every connection", "Connection reset by peer", 8)
against_broker("mqtt-trickle-connack", mqtt_trickling(4.0), "an MQTT broker sending its CONNACK a byte every 4 s",
               "no answer to CONNECT in 10 s", 12)
against_broker("mqtt-trickle", mqtt_trickling(0, SUBACK + mqtt_publish("radar-kiosk/command", b'{"cmd":"get"}' * 40)),
               "an MQTT broker sending a message a byte a second, never answering a ping", "no answer to a ping in 10 s", 30)
against_broker("mqtt-acks", mqtt_acknowledgement_flood, "an MQTT broker flooding PINGRESP and SUBACK", "mqtt connected", 6)


def flooded_broker(k):
    under_attack("an MQTT broker flooding commands at full speed (garbage, gets, sets, bad brightness)", k, lambda attack: attack.wait(), 8)
    # It took commands all along (the flood's brightnesses are all under 100, where it started);
    # what TCP holds back waits in the kernel and the broker, not in the kiosk.
    brightness = ((k.get()[0] or {}).get("screen") or {}).get("brightness")
    check("under the MQTT flood the kiosk takes commands as it can", brightness is not None and 1 <= brightness < 100, f"(brightness {brightness})")


flood_port, flood_stop = serve_tcp(mqtt_flood)
with_kiosk(flooded_broker, "mqtt-flood", conf=f"mqtt.broker = 127.0.0.1:{flood_port}\n")
flood_stop.set()


def reload_section(k):
    mode = lambda: (k.get()[0] or {}).get("state", {}).get("mode")
    shown = wait_for(lambda: mode() == "overflight", 10)
    k.proc.send_signal(signal.SIGHUP)
    reloaded = wait_for(lambda: "configuration reloaded" in k.text(), 10)
    # A snapshot read after the reload, the aircraft now 4.5 NM away: still shown, so the flag's 5 NM still holds.
    put(aircraft_json([{"hex": "4ca123", "flight": "EZY81QK", "alt_baro": 3000, "lat": STATION[0] + 4.5 / 60, "lon": STATION[1], "seen_pos": 1}]))
    moved = wait_for(lambda: ((k.get()[0] or {}).get("state", {}).get("aircraft") or {}).get("distance_nm") == 4.5, 10)
    check("SIGHUP keeps --radius 5 over the file's 1 NM: the aircraft 4 NM away stays", shown and reloaded and moved and mode() == "overflight",
          k.text().strip().splitlines()[-1])
    open(k.conf, "a").write("overhead.ceiling_ft = 1000\nrotation = 90\n")
    k.proc.send_signal(signal.SIGHUP)
    gone = wait_for(lambda: mode() == "standby", 15)
    check("SIGHUP applies a lower ceiling at once and names what waits for a restart",
          gone and "rotation take effect after a restart" in k.text(), k.text().strip().splitlines()[-1])


with_kiosk(reload_section, "reload", extra=["--radius", "5"], conf=f"feed = {feed_path}\nstation = {STATION[0]}, {STATION[1]}\noverhead.radius_nm = 1\n")

# The overflight log on a full disk: a tmpfs of two pages, one holding a
# filler and one the log, so a batch's write runs out of room part-way (a
# partial write, then ENOSPC). The torn part must be taken back; once there
# is room again the kept lines are written once each, whole.
def full_disk_section(k):
    def overflights(prefix, count):
        for i in range(count):
            k.command(json.dumps({"cmd": "set", "state": {"mode": "overflight", "aircraft": {"callsign": f"{prefix}{i:02d}"}}}))
            k.get()   # a loop turn later: the log has seen it
    def lines():
        return open(log_file, "rb").read().split(b"\n")
    overflights("FUL", 21)   # 20 finished: a full batch, written at once
    refused = wait_for(lambda: "keeping the lines for the next try" in k.text(), 10)
    after = open(log_file, "rb").read()
    check("the overflight log on a full disk: one line, and the part written is taken back (no torn line)",
          refused and after == before and k.text().count("overflight log") == 1,
          f"({len(before)} bytes before, {len(after)} after) " + next((l for l in k.text().splitlines() if "next try" in l), "(nothing said)"))
    os.unlink(os.path.join(disk, "filler"))
    overflights("ROOM", 21)
    k.stop()
    records = [json.loads(line) for line in lines() if line]
    written = [r["callsign"] for r in records if not r["callsign"].startswith("OLD")]
    check("with room again the kept lines are written once each, every line whole",
          all(line.endswith(b"}") for line in lines() if line) and len(written) == len(set(written))
          and "FUL00" in written and "ROOM19" in written and len(written) >= 40,
          f"({len(written)} lines, {len(set(written))} distinct)")


if os.geteuid() != 0:
    print("skip: the full-disk test needs root (a tmpfs mount)", flush=True)
    if os.environ.get("CI"):
        check("the full-disk test ran (CI runs as root)", False)
else:
    disk = os.path.join(work, "small-disk")   # not the kiosk's own directory, which is named after its section
    os.makedirs(disk)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k,mode=0755", "tmpfs", disk], check=True)
    try:
        open(os.path.join(disk, "filler"), "wb").write(b"x" * 4096)
        log_file = os.path.join(disk, "overflights.jsonl")
        old = [json.dumps({"start": 1796390000 + i, "end": 1796390060 + i, "callsign": f"OLD{i:02d}"}) for i in range(60)]
        before = ("\n".join(old) + "\n").encode()
        before = before[:before.rfind(b"\n", 0, 3900) + 1]
        open(log_file, "wb").write(before)
        with_kiosk(full_disk_section, "full-disk", conf=f"overflight_log = {log_file}\n")
    finally:
        subprocess.run(["umount", "-l", disk])

# A storm of state changes at 1920x1080@60 (every one a glide, a new card or
# a fade, from a client as fast as the socket takes them), then 30 s of
# quiet: the CPU comes back to what the sweeping dial cost before the storm,
# and memory to within a few MiB of it. Not recorded: 1080p frames are 3 MiB.
def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_of(pid):
    return next(int(l.split()[1]) / 1024 for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:"))


def state_storm():
    directory = os.path.join(work, "storm-1080")
    os.makedirs(directory)
    sock = os.path.join(directory, "k.sock")
    conf = os.path.join(directory, "k.conf")
    open(conf, "w").write(f"display = headless\nsize = 1920x1080\nrefresh = 60\nkeyboard = none\nsocket = {sock}\n"
                          f"screenshot_dir = {directory}\n")
    log = open(os.path.join(directory, "log"), "w+")
    proc = subprocess.Popen([kiosk, "run", "--config", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        if not wait_for(lambda: os.path.exists(sock) and "first frame on" in open(log.name).read(), 20):
            raise RuntimeError("the kiosk did not start: " + open(log.name).read()[-300:])

        def cost(seconds):
            """CPU (a share of one core) and peak RSS over `seconds`, with `get` answered throughout."""
            start_cpu, start, peak, slowest = cpu_seconds(proc.pid), time.time(), 0.0, 0.0
            while time.time() - start < seconds:
                began = time.time()
                command(sock, '{"cmd":"get"}', 1.0)
                slowest = max(slowest, time.time() - began)
                peak = max(peak, rss_of(proc.pid))
                time.sleep(0.25)
            return (cpu_seconds(proc.pid) - start_cpu) / (time.time() - start), peak, slowest
        def settled():
            try:
                reply = command(sock, '{"cmd":"get"}', 1.0)
                return reply.get("ok") and not reply.get("animating")
            except (OSError, ValueError):
                return False
        # The sweep is not an animation here: settled is the dial alone, sweeping.
        wait_for(settled, 10)
        before_cpu, before_rss, _ = cost(6)
        changes = [0]

        def storm_then_quiet():
            stop_storm = threading.Event()

            def storm():
                rng = random.Random(7)
                while not stop_storm.is_set():
                    if rng.random() < 0.3:
                        line = '{"cmd":"set","state":{"mode":"standby"}}'
                    else:
                        line = json.dumps({"cmd": "set", "state": {"mode": "overflight", "aircraft": {
                            "callsign": f"STM{rng.randrange(10000):04d}", "type": rng.choice(["A320", "B789", "E190"]),
                            "route": rng.choice(["LHR → JFK", "BFS → LGW", None]), "altitude_ft": rng.randrange(0, 40000),
                            "ground_speed_kt": rng.randrange(100, 500), "distance_nm": rng.randrange(0, 30) / 10,
                            "bearing_deg": rng.randrange(360)}}})
                    try:
                        command(sock, line, 1.0)
                        changes[0] += 1
                    except (OSError, ValueError):
                        pass
            thread = threading.Thread(target=storm, daemon=True)
            thread.start()
            storm_cpu, storm_rss, storm_get = cost(10)
            stop_storm.set()
            thread.join(5)
            command(sock, '{"cmd":"set","state":{"mode":"standby"}}', 1.0)
            wait_for(settled, 10)
            after_cpu, after_rss, _ = cost(10)
            return storm_cpu, storm_rss, storm_get, after_cpu, after_rss
        storm_cpu, storm_rss, storm_get, after_cpu, after_rss = storm_then_quiet()
        _, storm2_rss, storm2_get, after2_cpu, after2_rss = storm_then_quiet()
        # The first storm fills the glyph cache (bounded) and the allocator's
        # arenas; a second must find them filled, not grow them: after it, no
        # more than the first storm ever held (whether the allocator had given
        # some back when the first quiet was measured is its own affair: seen
        # 42.8 then 48.9 MiB in CI with 47.0 held in the first storm). A leak
        # of 2 KiB a change is some 25 MiB past it.
        check(f"two storms of {changes[0]} state changes at 1920x1080@60, each then settled and 10 s of quiet: CPU back to the sweeping dial's, "
              "memory not growing storm to storm",
              proc.poll() is None and changes[0] > 200 and max(storm_get, storm2_get) < GET_ANSWER_LIMIT
              and max(after_cpu, after2_cpu) <= before_cpu * 1.25 + 0.02 and after_rss <= before_rss + 16 and after2_rss <= max(after_rss, storm_rss) + 3,
              f"(CPU {before_cpu * 100:.0f} % of a core before, {storm_cpu * 100:.0f} % in the storm, {after_cpu * 100:.0f} % and "
              f"{after2_cpu * 100:.0f} % after each; RSS {before_rss:.1f} MiB before, {storm_rss:.1f} and {storm2_rss:.1f} in the storms, "
              f"{after_rss:.1f} and {after2_rss:.1f} after; get at most {max(storm_get, storm2_get) * 1000:.0f} ms)")
    finally:
        stop(proc)


try:
    state_storm()
except Exception as error:
    check("the state storm at 1920x1080 ran to the end", False, repr(error)[:300])

# A crowded sky: 5,000 aircraft inside the traffic dial's 40 NM, 400 of them
# within the overhead radius, rewritten every second, with the traffic dial on
# and a 200,000-line watch list. The overhead ceiling is set under them all,
# so the dial sweeps (every frame drawn, 64 blips) while every one within the
# alert radius is matched against the whole list on the loop, and none is on
# it; then the farthest overhead one takes a registration on the list.
crowd_random = random.Random(40)
crowd = []
for i in range(5_000):
    distance = 0.2 + 2.5 * (i / 400) if i < 400 else 3 + 36 * crowd_random.random()
    bearing = crowd_random.random() * 2 * math.pi
    crowd.append({"hex": f"{0x300000 + i:06x}", "flight": f"CRW{i:04d}", "r": f"G-C{i:04d}", "t": "A320", "alt_baro": 5000 + i % 4000,
                  "gs": 250, "track": i % 360, "lat": STATION[0] + distance / 60 * math.cos(bearing),
                  "lon": STATION[1] + distance / 60 * math.sin(bearing) / math.cos(math.radians(STATION[0])), "seen_pos": 1})
watch_list = os.path.join(work, "watch-list.txt")
with open(watch_list, "w") as f:
    for i in range(200_000):
        kind = i % 4
        f.write([f"hex:{0xA00000 + i:06X}", f"reg:N{i:06d}", f"callsign:QQ{i:06d}", f"type:Z{i % 1000:03d}"][kind] + "\n")
    f.write("reg:G-WATCH\n")


def crowded_section(k):
    def rewrite(stop):
        while not stop.is_set():
            put(aircraft_json(crowd))
            stop.wait(1.0)
    put(aircraft_json(crowd))
    under_attack("5,000 aircraft inside the traffic range (400 overhead), rewritten every second, a 200,000-line watch list", k, rewrite, 8)
    crowd[399]["r"] = "G-WATCH"
    put(aircraft_json(crowd))
    shown = wait_for(lambda: ((k.get()[0] or {}).get("state", {}).get("aircraft") or {}).get("alert") == "WATCHED", 10)
    aircraft = (k.get()[0] or {}).get("state", {}).get("aircraft") or {}
    check("the one aircraft on the 200,000-line watch list, among 5,000, is the alert shown",
          shown and aircraft.get("callsign") == "CRW0399", json.dumps(aircraft)[:300])


with_kiosk(crowded_section, "crowded", conf=f"feed = {feed_path}\nstation = {STATION[0]}, {STATION[1]}\ntraffic = yes\n"
                                            f"overhead.ceiling_ft = 1000\nalerts.watch_list = {watch_list}\n")

# Routes files no card can show: 15 MB (the limit is 2 MiB: the file is held
# in memory whole, and the world's routes are in the standing data), a
# 200,000-character route, a bidi override and an escape sequence in a route.
# Each stops the kiosk at start with one line naming the file, the line and
# what is wrong (exit 2: a configuration to change, not to restart).
routes_cases = {
    "15 MB": ("".join(f"XYZ{i:05d} LHR-JFK\n" for i in range(900_000)), "larger than 2 MiB"),
    "a 200,000-character route": ("BAW283 LHR-" + "JFK-" * 50_000 + "LAX\n", ":1: the route for BAW283: longer than 40 characters"),
    "a bidi override": ("# ok\nBAW283 LHR\u202e-LAX\n", ":2: the route for BAW283: contains U+202E"),
    "an escape sequence": ("BAW283 LHR\x1b[2J\n", ":1: the route for BAW283: contains U+001B"),
}
for what, (text, said) in routes_cases.items():
    routes_file = os.path.join(work, "routes.txt")
    open(routes_file, "w").write(text)
    conf_file = os.path.join(work, "routes.conf")
    open(conf_file, "w").write(f"display = headless\nsize = 160x96\nkeyboard = none\nfeed = {feed_path}\nstation = {STATION[0]}, {STATION[1]}\n"
                               f"routes = {routes_file}\n")
    result = subprocess.run([kiosk, "run", "--config", conf_file, "--frames", "30"], capture_output=True, timeout=60)
    lines = result.stderr.decode(errors="replace").strip().splitlines()
    check(f"a routes file with {what}: refused at start, one clear line",
          result.returncode == 2 and any(said in line and "routes.txt" in line for line in lines)
          and all(len(line) < 300 and "\x1b" not in line and "\u202e" not in line for line in lines),
          f"(exit {result.returncode}) {lines[-2:]}")

# A mistyped time zone: the C library reads it as UTC and says nothing, so a
# night schedule would start an hour or more off. One line at start, and the
# kiosk runs on.
def time_zone_section(k):
    said = wait_for(lambda: "TZ 'Europe/Lndon'" in k.text(), 10)
    reply, _ = k.get()
    check("TZ=Europe/Lndon: one line saying local time reads as UTC, the kiosk running",
          said and k.text().count("local time reads as UTC") == 1 and reply and reply.get("ok") and k.proc.poll() is None,
          k.text().strip().splitlines()[-1][:200])


with_kiosk(time_zone_section, "time-zone", env=dict(os.environ, TZ="Europe/Lndon"))

crlf = os.path.join(work, "crlf.conf")
open(crlf, "wb").write(b"# a CRLF file\r\ndisplay = headless\r\nnonsense here\r\nkey.Q = toggle\r\nkey.q = quit\r\n")
result = subprocess.run([kiosk, "check-config", crlf], capture_output=True, timeout=10)
check("check-config reads a CRLF file line by line, and a key set twice in two cases",
      result.returncode == 1 and b"crlf.conf:3: expected KEY = VALUE" in result.stdout and b"crlf.conf:5: key.q is set again" in result.stdout,
      result.stdout.decode()[-300:])

print(f"hostile: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
