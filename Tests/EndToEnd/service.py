#!/usr/bin/env python3
"""The kiosk as systemd runs it: sd_notify on a real datagram socket (a path and
an abstract name), READY=1 after the first frame, WATCHDOG=1 at half of
WATCHDOG_USEC, STATUS=, STOPPING=1 and exit 0 on SIGTERM; SIGHUP with a bad
configuration keeps the running one; SIGUSR1 writes a screenshot.
Usage: service.py PATH/radar-kiosk"""
import os, signal, socket, struct, subprocess, sys, tempfile, time, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pictures import difference, read_png  # noqa: E402
from waiting import wait_for, wait_until_steady  # noqa: E402
from control import stop  # noqa: E402

kiosk = sys.argv[1]
passed = failed = 0
# Linux's SO_TIMESTAMP (asm-generic/socket.h, also x86's); Python's socket module does not name it.
SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {name} {detail}", file=sys.stderr)


def messages(sock, seconds):
    """Each datagram with the time the kernel queued it (SO_TIMESTAMP, set on
    the socket), not the time this script got round to reading it: on a loaded
    machine the test's own scheduling would otherwise show up as the kiosk's
    lateness."""
    out, end = [], time.time() + seconds
    sock.settimeout(0.1)
    while time.time() < end:
        try:
            data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(16))
        except socket.timeout:
            continue
        sent = time.time()
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMP:
                seconds_part, micros = struct.unpack("qq", value[:16])
                sent = seconds_part + micros / 1e6
        out.append((sent, data.decode()))
    return out


work = tempfile.mkdtemp(prefix="rk-service-")
config = os.path.join(work, "k.conf")
open(config, "w").write(f"display = headless\nsize = 320x240\nrefresh = 30\nscreenshot_dir = {work}\n")
for run, address in enumerate([os.path.join(work, "notify.sock"), "@radar-kiosk-test-%d" % os.getpid()]):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + address[1:] if address.startswith("@") else address)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
    env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="400000")
    log = open(os.path.join(work, f"kiosk-{run}.log"), "w+")
    proc = subprocess.Popen([kiosk, "run", "--config", config], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=log)
    got = messages(sock, 2.0)
    texts = [m for _, m in got]
    ready = [t for t, m in got if "READY=1" in m]
    check(f"{address}: READY=1 after the first frame", bool(ready) and any("STATUS=STANDBY on headless 320x240@30" in m for m in texts), str(texts[:2]))
    dogs = [t for t, m in got if m == "WATCHDOG=1"]
    gaps = [b - a for a, b in zip(dogs, dogs[1:])]
    # Half of WATCHDOG_USEC as a rule, never a gap systemd would kill for.
    typical = sorted(gaps)[len(gaps) // 2] if gaps else 0
    check(f"{address}: WATCHDOG=1 every 0.2 s", len(dogs) >= 6 and 0.17 < typical < 0.26 and all(0.15 < g < 0.4 for g in gaps),
          f"{len(dogs)} pings, gaps {[round(g, 2) for g in gaps]}")
    # SIGUSR1: a screenshot from the cached frame.
    proc.send_signal(signal.SIGUSR1)
    shots = wait_for(lambda: [f for f in os.listdir(work) if f.startswith("screenshot-") and f.endswith(".png")], 10)
    check(f"{address}: SIGUSR1 writes a screenshot", bool(shots), str(os.listdir(work)))
    # SIGHUP with a broken file: logged, the running configuration kept.
    open(config, "a").write("colour = green\n")
    proc.send_signal(signal.SIGHUP)
    wait_for(lambda: "keeping the running configuration" in open(log.name).read() or proc.poll() is not None, 10)
    check(f"{address}: still running after a bad reload", proc.poll() is None)
    # A good reload: the station is applied there and then (the overhead choice, the sun's
    # times); the rotation needs a restart, and the line says so of it alone.
    open(config, "w").write(f"display = headless\nsize = 320x240\nrefresh = 30\nscreenshot_dir = {work}\nstation = 51.47,-0.45\nrotation = 90\n")
    proc.send_signal(signal.SIGHUP)
    reloaded = wait_for(lambda: [l for l in open(log.name).read().splitlines() if "configuration reloaded" in l], 10)
    check(f"{address}: a reload applies the station and names only what needs a restart",
          reloaded == ["radar-kiosk: configuration reloaded; rotation take effect after a restart"], str(reloaded))
    open(config, "w").write(f"display = headless\nsize = 320x240\nrefresh = 30\nscreenshot_dir = {work}\n")
    for f in shots:
        os.unlink(os.path.join(work, f))
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(10)
    # Datagrams sent before the exit wait in the socket's queue.
    after = [m for _, m in messages(sock, 0.3)]
    err = open(log.name).read()
    check(f"{address}: a bad reload names the line and keeps the configuration",
          "k.conf:5: unknown key 'colour'" in err and "keeping the running configuration" in err, err[-400:])
    check(f"{address}: STOPPING=1 on SIGTERM and exit 0", any("STOPPING=1" in m for m in after) and code == 0, f"{after} exit {code}")
    sock.close()
    log.close()

# A manager that stops reading its notify socket (systemd stalled): the socket
# queues ten datagrams, two seconds of pings, and then a blocking send would
# hold the loop for good. The kiosk must go on answering and still stop.
unread = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
unread.bind(os.path.join(work, "unread.sock"))
proc = subprocess.Popen([kiosk, "run", "--config", config], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        env=dict(os.environ, NOTIFY_SOCKET=os.path.join(work, "unread.sock"), WATCHDOG_USEC="400000"))
os.set_blocking(proc.stdout.fileno(), False)
answers, end = [], time.time() + 4
while time.time() < end:
    proc.stdin.write(b'{"cmd":"get"}\n')
    proc.stdin.flush()
    answers.append(bool(wait_for(lambda: proc.stdout.read(), 2, step=0.01)))
    time.sleep(0.2)   # the pace of the gets, not a wait for anything
code = stop(proc, 10)
check("a notify socket nobody reads never holds the loop: gets answered, SIGTERM exits 0",
      len(answers) >= 10 and all(answers) and code == 0, f"({answers.count(True)} of {len(answers)} gets answered, exit {code})")
unread.close()

# SIGUSR1's screenshot is the picture on screen: decoded, it is the rendering of the state shown.
shots = os.path.join(work, "shots")
os.makedirs(shots)
open(os.path.join(work, "shot.conf"), "w").write(f"display = headless\nsize = 320x240\nrefresh = 30\nscreenshot_dir = {shots}\nkeyboard = none\n")
state = '{"mode":"overflight","aircraft":{"callsign":"BAW283","altitude_ft":36000,"ground_speed_kt":487}}'
proc = subprocess.Popen([kiosk, "run", "--config", os.path.join(work, "shot.conf")], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
proc.stdin.write(('{"cmd":"set","state":' + state + '}\n').encode())
proc.stdin.flush()
os.set_blocking(proc.stdout.fileno(), False)


def settled():
    """Asks whether anything still animates (waiting for the reply); true once the glide has settled."""
    proc.stdin.write(b'{"cmd":"get"}\n')
    proc.stdin.flush()
    reply = wait_for(lambda: proc.stdout.read(), 2, step=0.01) or b""
    return b'"animating":false' in reply


def written():
    """The screenshot once it is a whole PNG, else None."""
    taken = [f for f in os.listdir(shots) if f.endswith(".png")]
    try:
        return read_png(os.path.join(shots, taken[0]))[2] if taken else None
    except (AssertionError, ValueError, struct.error, zlib.error, IndexError):
        return None


wait_for(settled, 15, step=0)
proc.send_signal(signal.SIGUSR1)
picture = wait_for(written, 10)
proc.send_signal(signal.SIGTERM)
proc.wait(10)
open(os.path.join(work, "state.json"), "w").write(state + "\n")
subprocess.run([kiosk, "render", "--state", os.path.join(work, "state.json"), "--size", "320x240", "--out", os.path.join(work, "want.png")],
               check=True, capture_output=True)
mean = difference(picture, read_png(os.path.join(work, "want.png"))[2])[0] if picture else None
check("a SIGUSR1 screenshot is the picture of the state shown", mean is not None and mean < 0.5, f"(mean difference {mean})")

# Without NOTIFY_SOCKET nothing is sent and nothing breaks.
proc = subprocess.run([kiosk, "run", "--config", config, "--frames", "3"], stdin=subprocess.DEVNULL,
                      capture_output=True, env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}, timeout=30)
check("without NOTIFY_SOCKET it runs and exits 0", proc.returncode == 0, proc.stderr.decode()[-300:])
# A bad configuration refuses to start, with every problem and its line.
bad = os.path.join(work, "bad.conf")
open(bad, "w").write("display = sideways\nfeed = sbs://127.0.0.1:30003\n")
proc = subprocess.run([kiosk, "run", "--config", bad], stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
err = proc.stderr.decode()
check("a bad configuration refuses to start with every problem", proc.returncode == 2 and "bad.conf:1: display" in err and "station is not" in err, err)
proc = subprocess.run([kiosk, "check-config", bad], capture_output=True, timeout=30)
check("check-config reports the same problems", proc.returncode == 1 and "bad.conf:1: display: expected auto, drm or headless, not 'sideways'" in proc.stdout.decode(), proc.stdout.decode())
# With nothing happening the process sleeps: no timers, no wakeups.
def idle(args, command=None):
    """Wakeups and CPU ticks of a kiosk started with `args` over 5 s, once it has
    settled (no context switch for a whole second: on a loaded machine the
    kiosk may get the command late and draw late)."""
    proc = subprocess.Popen([kiosk, "run", *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")})
    if command:
        proc.stdin.write(command)
        proc.stdin.flush()

    def switches():
        # Every thread's: the threads that draw whole frames in bands sleep too.
        total = 0
        for task in os.listdir(f"/proc/{proc.pid}/task"):
            fields = dict(l.split(":", 1) for l in open(f"/proc/{proc.pid}/task/{task}/status").read().splitlines() if ":" in l)
            total += int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
        return total

    def cpu_ticks():
        return sum(int(v) for v in open(f"/proc/{proc.pid}/stat").read().split(")")[1].split()[11:13])
    wait_until_steady(switches, 1.0, 30)
    before, ticks = switches(), cpu_ticks()
    time.sleep(5)   # the window measured (wakeups in 5 s), not a wait for anything
    woke, used = switches() - before, cpu_ticks() - ticks
    threads = {open(f"/proc/{proc.pid}/task/{task}/comm").read().strip() for task in os.listdir(f"/proc/{proc.pid}/task")}
    proc.stdin.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    return woke, used, threads


# A settled OVERFLIGHT (no sweep) with no watchdog: its context switches stay put.
# Three threads draw whole frames (whatever this machine's cores), so that their idle is measured too.
threaded = os.path.join(work, "threaded.conf")
open(threaded, "w").write("render.threads = 3\n")
woke, used, threads = idle(["--config", threaded, "--display", "headless", "--size", "320x240", "--refresh", "30"],
                           b'{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"BAW283","altitude_ft":36000}}}\n')
print(f"idle: {woke} wakeups and {used} CPU ticks in 5 s, threads {sorted(threads)}", file=sys.stderr)
check("the kiosk draws whole frames on the threads asked for", {"radar-band-1", "radar-band-2"} <= threads, str(sorted(threads)))
check("an idle kiosk sleeps: no wakeups in 5 s", woke <= 1 and used == 0, f"{woke} wakeups, {used} ticks")
# Standby with no sweep (sweep = off) and no corner sleeps as well: nothing moves, nothing is drawn.
still = os.path.join(work, "still.conf")
open(still, "w").write("display = headless\nsize = 320x240\nrefresh = 30\nkeyboard = none\nsweep = off\nstandby.info = none\nrender.threads = 3\n")
woke, used, _ = idle(["--config", still])
check("standby without a sweep sleeps: no wakeups in 5 s", woke <= 1 and used == 0, f"{woke} wakeups, {used} ticks")
print(f"service: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
