#!/usr/bin/env python3
"""`feed = http://...` against the web servers users really have, each
started by this test on the loopback: Python's own http.server, Debian's
lighttpd serving the receiver's directory through an alias the way tar1090
does (/tar1090/data/ -> the readsb run directory), and Debian's nginx. A web
server says nothing until it has the whole request, so a kiosk that waits
for the server to speak first gets nothing from any of them (a scripted peer
that answers on accept hides that).

For each server the headless kiosk must: send its GET (the server's own log
says so), show the aircraft overhead, go back to STANDBY when it leaves, say
"HTTP 404" in one line when the file is gone, and pick the feed up again.
Then `feed = auto` with nothing local finds lighttpd on 127.0.0.1:8080 at
/data/aircraft.json (the adsb.im layout). Every wait has a time limit.
Usage: web-servers.py PATH/radar-kiosk"""
import json, os, shutil, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from control import command, stop  # noqa: E402
from loopback import Tally, answers, free_port  # noqa: E402

kiosk = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
capture = os.path.join(here, "..", "FeedTests", "Fixtures", "readsb_overirvine_170ac.json")
STATION = "33.635029, -117.842218"
tally = Tally()
check = tally.check
work = tempfile.mkdtemp(prefix="rk-web-")
# nginx's and lighttpd's workers may run as another user: everything they serve must be readable by all.
os.chmod(work, 0o755)





def put(directory, text):
    """Replaces aircraft.json the way readsb does: a temporary file, then a rename."""
    temp = os.path.join(directory, ".aircraft.json.tmp")
    with open(temp, "w") as f:
        f.write(text)
    os.chmod(temp, 0o644)
    os.rename(temp, os.path.join(directory, "aircraft.json"))


original = open(capture).read()
# The same capture with LXJ440 (the only airborne aircraft within 3 nm) moved 10 nm north.
away = original.replace('"lat":33.668198,"lon":-117.873492', '"lat":33.850000,"lon":-117.873492')
assert away != original, "the capture no longer has LXJ440 where this test expects it"
EMPTY = json.dumps({"now": 1643337800.0, "messages": 1, "aircraft": []})


def python_server(root, port, log):
    """Python's http.server, serving `root`; it logs each request on stderr."""
    return subprocess.Popen([sys.executable, "-u", "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", root],
                            stdout=log, stderr=log)


def lighttpd_server(root, port, log, run_dir, prefix):
    """lighttpd as tar1090 sets it up: `prefix` aliased to the receiver's run directory."""
    conf = os.path.join(os.path.dirname(log.name), "lighttpd.conf")
    with open(conf, "w") as f:
        f.write(f'server.document-root = "{root}"\nserver.port = {port}\nserver.bind = "127.0.0.1"\n'
                f'server.modules = ("mod_alias", "mod_accesslog")\n'
                f'alias.url = ("{prefix}" => "{run_dir}/")\n'
                f'accesslog.filename = "{log.name}.access"\nserver.errorlog = "{log.name}"\n'
                f'mimetype.assign = (".json" => "application/json")\n')
    open(f"{log.name}.access", "w").close()
    return subprocess.Popen(["/usr/sbin/lighttpd", "-D", "-f", conf], stdout=log, stderr=log)


def nginx_server(root, port, log):
    """nginx in the foreground with its own prefix, logs and temporary paths."""
    prefix = os.path.join(os.path.dirname(log.name), "nginx")
    os.makedirs(prefix, exist_ok=True)
    conf = os.path.join(prefix, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {log.name};\n"
                f"events {{ worker_connections 64; }}\n"
                f"http {{ access_log {log.name}.access; client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;\n"
                f"  fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;\n"
                f"  types {{ application/json json; }}\n"
                f"  server {{ listen 127.0.0.1:{port}; root {root}; }} }}\n")
    open(f"{log.name}.access", "w").close()
    return subprocess.Popen(["/usr/sbin/nginx", "-p", prefix, "-c", conf], stdout=log, stderr=log)


def server_log(log):
    log.flush()
    text = open(log.name).read()
    if os.path.exists(log.name + ".access"):
        text += open(log.name + ".access").read()
    return text


def start_kiosk(directory, feed):
    sock = os.path.join(directory, "control.sock")
    conf = os.path.join(directory, "k.conf")
    with open(conf, "w") as f:
        f.write(f"display = headless\nsize = 320x240\nrefresh = 30\nkeyboard = none\nsocket = {sock}\n"
                f"feed = {feed}\nstation = {STATION}\noverhead.hold_s = 1\n")
    log = open(os.path.join(directory, "kiosk.log"), "w+")
    proc = subprocess.Popen([kiosk, "run", "--config", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    return proc, sock, log


def kiosk_text(log):
    log.flush()
    return open(log.name).read()


def mode(sock):
    try:
        reply = command(sock, '{"cmd":"get"}', 2)
    except (OSError, ValueError):
        return None, None
    state = reply.get("state", {})
    return state.get("mode"), (state.get("aircraft") or {}).get("callsign")


def against(name, start_server, url_path, served_dir):
    """One web server through the whole story; the server and the kiosk are stopped whatever happens."""
    directory = os.path.join(work, name)
    os.makedirs(directory, exist_ok=True)
    os.makedirs(served_dir, exist_ok=True)
    os.chmod(directory, 0o755)
    os.chmod(served_dir, 0o755)
    put(served_dir, EMPTY)
    port = free_port()
    server_output = open(os.path.join(directory, "server.log"), "w+")
    server = start_server(port, server_output)
    proc = None
    try:
        if not wait_for(lambda: answers(port) or server.poll() is not None, 20) or server.poll() is not None:
            check(f"{name}: the server starts", False, server_log(server_output)[-600:])
            return
        proc, sock, log = start_kiosk(directory, f"http://127.0.0.1:{port}{url_path}")
        got = wait_for(lambda: "GET " + url_path in server_log(server_output), 20)
        check(f"{name}: the kiosk's GET reaches the server", got, server_log(server_output)[-400:] + kiosk_text(log)[-400:])
        put(served_dir, original)
        overhead = wait_for(lambda: mode(sock) == ("overflight", "LXJ440"), 30)
        check(f"{name}: the aircraft overhead is shown (LXJ440)", overhead, repr(mode(sock)) + kiosk_text(log)[-400:])
        put(served_dir, away)
        standby = wait_for(lambda: mode(sock)[0] == "standby", 30)
        check(f"{name}: STANDBY once it has gone", standby, repr(mode(sock)))
        os.unlink(os.path.join(served_dir, "aircraft.json"))
        missing = wait_for(lambda: "HTTP 404" in kiosk_text(log), 30)
        check(f"{name}: a missing file is one line saying HTTP 404", missing and kiosk_text(log).count("HTTP 404") == 1,
              kiosk_text(log)[-400:])
        put(served_dir, original)
        back = wait_for(lambda: mode(sock) == ("overflight", "LXJ440"), 30)
        check(f"{name}: the feed is picked up again", back and "is back" in kiosk_text(log), kiosk_text(log)[-400:])
        check(f"{name}: the kiosk is still running", proc.poll() is None)
    finally:
        if proc is not None:
            status = stop(proc)
            check(f"{name}: the kiosk stops cleanly", status == 0, f"exit {status}")
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


root = os.path.join(work, "www")
against("http.server", lambda port, log: python_server(root, port, log), "/data/aircraft.json", os.path.join(root, "data"))
run_dir = os.path.join(work, "run-readsb")
os.makedirs(os.path.join(work, "html"), exist_ok=True)
against("lighttpd", lambda port, log: lighttpd_server(os.path.join(work, "html"), port, log, run_dir, "/tar1090/data/"),
        "/tar1090/data/aircraft.json", run_dir)
against("nginx", lambda port, log: nginx_server(os.path.join(work, "nginx-root"), port, log), "/skyaware/data/aircraft.json",
        os.path.join(work, "nginx-root", "skyaware", "data"))

# `feed = auto` on a board whose receiver's web server (adsb.im, a tar1090
# install) is on 127.0.0.1:8080: found at start and followed.
local_files = ["/run/readsb/aircraft.json", "/run/dump1090-fa/aircraft.json", "/run/dump1090-mutability/aircraft.json",
               "/run/dump1090/aircraft.json"]
if answers(8080) or any(os.path.exists(p) for p in local_files):
    check("auto: 127.0.0.1:8080 is free and no receiver file exists (this test's premise)", False)
else:
    directory = os.path.join(work, "auto")
    os.makedirs(directory, exist_ok=True)
    os.chmod(directory, 0o755)
    served = os.path.join(directory, "www", "data")
    os.makedirs(served)
    os.chmod(os.path.dirname(served), 0o755)
    put(served, original)
    output = open(os.path.join(directory, "server.log"), "w+")
    server = lighttpd_server(os.path.dirname(served), 8080, output, served, "/data/")
    proc = None
    try:
        if wait_for(lambda: answers(8080), 20):
            proc, sock, log = start_kiosk(directory, "auto")
            shown = wait_for(lambda: mode(sock) == ("overflight", "LXJ440"), 30)
            check("auto: the web server on 127.0.0.1:8080 is found and its aircraft shown", shown,
                  repr(mode(sock)) + kiosk_text(log)[-400:])
        else:
            check("auto: lighttpd starts on 8080", False, server_log(output)[-400:])
    finally:
        if proc is not None:
            stop(proc)
        server.terminate()
        server.wait(10)

# Two feeds at once (feed = FILE, http://...): LXJ440 is in both, its position
# 12 s old and 10 NM away in the file, 3.8 s old and overhead over HTTP. The
# fresher wins; when the web server goes, the file's aircraft carry on (one
# line, no "unavailable"). Both keep their receiver time moving, as readsb does.
directory = os.path.join(work, "two")
os.makedirs(os.path.join(directory, "www", "data"))
for d in (directory, os.path.join(directory, "www"), os.path.join(directory, "www", "data")):
    os.chmod(d, 0o755)
stale_away = away.replace('"lat":33.850000,"lon":-117.873492,"nic":8,"rc":186,"seen_pos":3.8', '"lat":33.850000,"lon":-117.873492,"nic":8,"rc":186,"seen_pos":12.0')
assert stale_away != away, "the capture no longer has LXJ440's seen_pos where this test expects it"
moving = threading.Event()


def stamp_both():
    stamp = f'"now" : {time.time():.1f}'
    put(directory, stale_away.replace('"now" : 1643337806.2', stamp, 1))
    put(os.path.join(directory, "www", "data"), original.replace('"now" : 1643337806.2', stamp, 1))


def keep_moving():
    while not moving.wait(0.5):
        stamp_both()


stamp_both()
keep_moving_thread = threading.Thread(target=keep_moving, daemon=True)
keep_moving_thread.start()
port = free_port()
output = open(os.path.join(directory, "server.log"), "w+")
server = python_server(os.path.join(directory, "www"), port, output)
proc = None
try:
    if wait_for(lambda: answers(port), 20):
        proc, sock, log = start_kiosk(directory, f"{directory}/aircraft.json, http://127.0.0.1:{port}/data/aircraft.json")
        fresher = wait_for(lambda: mode(sock) == ("overflight", "LXJ440"), 30)
        check("two feeds: the fresher position of the same aircraft is the one shown (overhead, LXJ440)", fresher,
              repr(mode(sock)) + kiosk_text(log)[-400:])
        url = f"http://127.0.0.1:{port}/data/aircraft.json"
        feeds = lambda: {f["name"]: f["live"] for f in command(sock, '{"cmd":"get"}', 2).get("feeds", [])}  # noqa: E731
        check("two feeds: get says both are live", feeds() == {f"{directory}/aircraft.json": True, url: True}, repr(feeds()))
        server.terminate()
        server.wait(10)
        carried = wait_for(lambda: "the other feeds carry on" in kiosk_text(log) and mode(sock)[0] == "standby", 30)
        state = command(sock, '{"cmd":"get"}', 2).get("state", {})
        check("two feeds: the web server gone, the file's aircraft carry on (its LXJ440 10 NM away: standby, no note)",
              carried and not state.get("note") and "showing NO DATA and retrying" not in kiosk_text(log), repr(state) + kiosk_text(log)[-1500:])
        check("two feeds: get says which is live now", feeds() == {f"{directory}/aircraft.json": True, url: False}, repr(feeds()))
    else:
        check("two feeds: http.server starts", False, server_log(output)[-400:])
finally:
    moving.set()
    if proc is not None:
        stop(proc)
    if server.poll() is None:
        server.terminate()
        server.wait(10)

shutil.rmtree(work, ignore_errors=True)
print(f"web servers: {tally.passed} passed, {tally.failed} failed", flush=True)
sys.exit(1 if tally.failed else 0)
