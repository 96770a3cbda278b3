#!/usr/bin/env python3
"""`feed = https://...` against Debian's nginx with TLS, on the loopback,
with a certificate authority this test makes (openssl): no mocks.

The good server gzips aircraft.json on the fly, which nginx sends chunked;
the kiosk must show the aircraft from it, keep its connection between
requests, and say who it is. Then the failures, one kiosk each, each of
which must be one clear line however often it is retried, with the kiosk
still answering `get` within 250 ms:
  - a CA that did not sign the server's certificate;
  - an expired certificate;
  - a certificate for another host name;
  - 429 with Retry-After: 7 (no request for 7 s: counted in nginx's log);
  - 403 (no second request within 20 s: minutes of backoff);
  - a web page answered with 200 (a captive portal): refused, never data;
  - 1 GiB of "aircraft.json": cut at the 32 MiB cap.
Last, the aggregator presets (feed = adsb.lol, feed = adsb.fi) against this
server in their place (RADAR_KIOSK_AGGREGATOR_ORIGIN), side by side for 60 s:
nginx's log must show each service's documented query for the station, its
rate never exceeded (adsb.lol 1 per 5 s, adsb.fi 1 per second), the
User-Agent, and the kiosk showing what came back.
Usage: https.py PATH/radar-kiosk"""
import gzip, http.client, json, os, shutil, socket, ssl, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402
from control import command, stop  # noqa: E402
from loopback import Tally, answers, free_port  # noqa: E402
from testca import make_ca, make_certificate  # noqa: E402
from recording import GET_ANSWER_LIMIT, frame_times, p99  # noqa: E402

kiosk = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
capture = os.path.join(here, "..", "FeedTests", "Fixtures", "readsb_overirvine_170ac.json")
STATION = "33.635029, -117.842218"
tally = Tally()
check = tally.check
work = tempfile.mkdtemp(prefix="rk-https-")
os.chmod(work, 0o755)

make_ca(work, "ca")
make_ca(work, "other-ca")
make_certificate(work, "good", "ca", ["localhost", "127.0.0.1"], 2)
make_certificate(work, "expired", "ca", ["localhost", "127.0.0.1"], -1)
make_certificate(work, "elsewhere", "ca", ["receiver.example"], 2)

www = os.path.join(work, "www")
os.makedirs(os.path.join(www, "data"))
os.chmod(www, 0o755)
os.chmod(os.path.join(www, "data"), 0o755)
original = open(capture).read()
with open(os.path.join(www, "data", "aircraft.json"), "w") as f:
    f.write(original)
# The same capture with LXJ440 (the only airborne aircraft within 3 nm) moved 10 nm north.
away = original.replace('"lat":33.668198,"lon":-117.873492', '"lat":33.850000,"lon":-117.873492')
assert away != original, "the capture no longer has LXJ440 where this test expects it"
with open(os.path.join(www, "data", "away.json"), "w") as f:
    f.write(away)
with open(os.path.join(www, "portal.html"), "w") as f:
    f.write("<!DOCTYPE html><html><body>Please log in to the hotel Wi-Fi</body></html>")
with open(os.path.join(www, "huge.json"), "wb") as f:
    f.truncate(1 << 30)  # sparse: 1 GiB of zero bytes, sent at TLS speed
for name in ("data/aircraft.json", "data/away.json", "portal.html", "huge.json"):
    os.chmod(os.path.join(www, name), 0o644)

ports = {name: free_port() for name in ("good", "expired", "elsewhere")}
prefix = os.path.join(work, "nginx")
os.makedirs(prefix)
access_log = os.path.join(prefix, "access.log")
error_log = os.path.join(prefix, "error.log")
servers = ""
for name, port in ports.items():
    servers += (f"  server {{ listen 127.0.0.1:{port} ssl; ssl_certificate {work}/{name}.pem; ssl_certificate_key {work}/{name}.key;\n"
                f"    root {www}; gzip on; gzip_types application/json; gzip_min_length 0;\n"
                f"    location = /limited.json {{ add_header Retry-After 7 always; return 429; }}\n"
                f"    location = /forbidden.json {{ return 403; }}\n"
                f"    location = /portal.json {{ default_type text/html; try_files /portal.html =404; }}\n"
                # The aggregators' queries: adsb.lol's answered with the aircraft overhead, adsb.fi's with it gone.
                f"    location ^~ /v2/point/ {{ default_type application/json; try_files /data/aircraft.json =404; }}\n"
                f"    location ^~ /api/v2/lat/ {{ default_type application/json; try_files /data/away.json =404; }} }}\n")
with open(os.path.join(prefix, "nginx.conf"), "w") as f:
    f.write(f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {error_log} info;\n"
            f"events {{ worker_connections 64; }}\n"
            f"http {{ log_format kiosk '$msec $server_port $connection $status \"$request\" \"$http_user_agent\" $gzip_ratio';\n"
            f"  access_log {access_log} kiosk; client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;\n"
            f"  fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;\n"
            f"  types {{ application/json json; text/html html; }}\n{servers}}}\n")
nginx_output = open(os.path.join(prefix, "stderr.log"), "w+")
nginx = subprocess.Popen(["/usr/sbin/nginx", "-p", prefix, "-c", os.path.join(prefix, "nginx.conf")],
                         stdout=nginx_output, stderr=nginx_output)



def requests(port, path, prefix=False):
    """nginx's log lines for `path` (or paths starting with it) on `port`:
    (time, connection, status, user agent, gzip ratio)."""
    found = []
    if os.path.exists(access_log):
        for line in open(access_log):
            parts = line.split(" ")
            if len(parts) >= 6 and parts[1] == str(port) and (f" {path}" if prefix else f" {path} ") in line:
                agent = line.split('"')[3] if line.count('"') >= 4 else ""
                found.append((float(parts[0]), parts[2], parts[3], agent, parts[-1].strip()))
    return found


def refused_connections(port):
    """Connections the kiosk gave up after the handshake (nginx's error log at info level)."""
    if not os.path.exists(error_log):
        return 0
    return sum(1 for line in open(error_log) if f"server: 127.0.0.1:{port}" in line
               and ("SSL_do_handshake() failed" in line or "closed connection while waiting for request" in line))


def start_kiosk(name, feed, ca, env=None, record=None):
    directory = os.path.join(work, name)
    os.makedirs(directory)
    sock = os.path.join(directory, "control.sock")
    conf = os.path.join(directory, "k.conf")
    with open(conf, "w") as f:
        f.write(f"display = headless\nsize = 320x240\nrefresh = 30\nkeyboard = none\nsocket = {sock}\n"
                f"feed = {feed}\nfeed.ca_file = {work}/{ca}.pem\nstation = {STATION}\n")
    log = open(os.path.join(directory, "kiosk.log"), "w+")
    proc = subprocess.Popen([kiosk, "run", "--config", conf] + (["--record", record] if record else []),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                            env=dict(os.environ, **(env or {})))
    return proc, sock, log


def text(log):
    log.flush()
    return open(log.name).read()


def get(sock):
    """The kiosk's state and how long `get` took, or (None, seconds)."""
    started = time.time()
    try:
        reply = command(sock, '{"cmd":"get"}', 2)
    except (OSError, ValueError):
        return None, time.time() - started
    return reply.get("state", {}), time.time() - started


def shown(sock):
    state, _ = get(sock)
    return state and (state.get("mode"), (state.get("aircraft") or {}).get("callsign"))


def failing(name, feed, ca, line, repeats, port=None, path=None):
    """A kiosk whose feed fails: one line saying `line`, however many tries `repeats()` counts; still answering."""
    proc, sock, log = start_kiosk(name, feed, ca)
    try:
        said = wait_for(lambda: line in text(log), 20)
        retried = wait_for(lambda: repeats() >= 3, 30)
        check(f"{name}: one line saying '{line}' over {repeats()} tries", said and retried and text(log).count(line) == 1,
              text(log)[-500:])
        state, took = get(sock)
        check(f"{name}: the kiosk keeps running and answers get in {took * 1000:.0f} ms", proc.poll() is None and state is not None
              and state.get("mode") == "standby" and took < 0.25, repr(state))
    finally:
        stop(proc)


try:
    if not wait_for(lambda: all(answers(p) for p in ports.values()) or nginx.poll() is not None, 20) or nginx.poll() is not None:
        nginx_output.flush()
        check("nginx starts with TLS", False, open(nginx_output.name).read()[-600:])
        raise SystemExit
    good = ports["good"]

    # What nginx sends (checked with Python's own TLS client): gzipped, chunked.
    context = ssl.create_default_context(cafile=f"{work}/ca.pem")
    connection = http.client.HTTPSConnection("localhost", good, context=context, timeout=10)
    connection.request("GET", "/data/aircraft.json", headers={"Accept-Encoding": "gzip", "User-Agent": "https.py"})
    response = connection.getresponse()
    body = gzip.decompress(response.read())
    check("nginx sends aircraft.json gzipped and chunked (the case the kiosk must read)",
          response.getheader("Content-Encoding") == "gzip" and response.getheader("Transfer-Encoding") == "chunked"
          and json.loads(body)["aircraft"], repr(response.getheaders()))
    connection.close()

    proc, sock, log = start_kiosk("good", f"https://localhost:{good}/data/aircraft.json", "ca")
    try:
        overhead = wait_for(lambda: shown(sock) == ("overflight", "LXJ440"), 30)
        check("good: the aircraft overhead is shown over HTTPS (LXJ440)", overhead, repr(shown(sock)) + text(log)[-400:])
        wait_for(lambda: len(requests(good, "/data/aircraft.json")) >= 5, 20)
        seen = [r for r in requests(good, "/data/aircraft.json") if r[3] != "https.py"]
        check(f"good: {len(seen)} requests, each answered 200 and gzipped", len(seen) >= 4
              and all(r[2] == "200" and r[4] not in ("-", "") for r in seen), repr(seen[:4]))
        check("good: each request says it is radar-kiosk with its version", all(r[3].startswith("radar-kiosk/0.") for r in seen),
              repr({r[3] for r in seen}))
        check("good: the connection is kept between requests (keep-alive)", len({r[1] for r in seen}) < len(seen),
              repr([r[1] for r in seen]))
        check("good: no feed failure was logged", "retrying" not in text(log), text(log)[-400:])
    finally:
        stop(proc)

    for name, port, ca, line in [
            ("wrong-ca", good, "other-ca", "SSL certificate problem: unable to get local issuer certificate"),
            ("expired", ports["expired"], "ca", "SSL certificate problem: certificate has expired"),
            ("wrong-host", ports["elsewhere"], "ca", "no alternative certificate subject name matches target host name 'localhost'")]:
        before = refused_connections(port)
        failing(name, f"https://localhost:{port}/data/aircraft.json", ca, line,
                lambda: refused_connections(port) - before)  # noqa: B023 (called before the next turn)
    failing("portal", f"https://localhost:{good}/portal.json", "ca", "answered with a web page, not aircraft.json",
            lambda: len(requests(good, "/portal.json")))
    failing("huge", f"https://localhost:{good}/huge.json", "ca", "answer larger than 32 MiB",
            lambda: len(requests(good, "/huge.json")))

    # A TLS server that sends its headers and part of the body, then stalls:
    # the transfer times out (one line), and meanwhile the kiosk draws on its
    # schedule and answers get, the hostile harness's measures.
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(f"{work}/good.pem", f"{work}/good.key")
    stalling = socket.socket()
    stalling.bind(("127.0.0.1", 0))
    stalling.listen(8)
    stalling.settimeout(0.2)
    stalled = threading.Event()
    stalls = []  # one entry a request the stalling server read

    def stall(conn):
        try:
            tls = context.wrap_socket(conn, server_side=True)
            tls.recv(65536)
            stalls.append(time.time())
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
                        b'{"now": 1700000000, "aircraft": [{"hex": "a54b30", ')
            stalled.wait()
        except OSError:
            pass
        finally:
            conn.close()

    def accept_stalling():
        while not stalled.is_set():
            try:
                conn, _ = stalling.accept()
            except socket.timeout:
                continue
            threading.Thread(target=stall, args=(conn,), daemon=True).start()
        stalling.close()
    threading.Thread(target=accept_stalling, daemon=True).start()
    video = os.path.join(work, "stalled.y4m")
    proc, sock, log = start_kiosk("stalled", f"https://localhost:{stalling.getsockname()[1]}/data/aircraft.json", "ca", record=video)
    try:
        wait_for(lambda: "first frame on" in text(log), 20)
        latencies, started = [], time.time()

        def measured():
            """One `get` while the server stalls; done once 8 s are measured."""
            state, took = get(sock)
            latencies.append(took if state is not None else 1.0)
            return time.time() - started >= 8
        wait_for(measured, 20, step=0.2)
        said = wait_for(lambda: "no answer within" in text(log) or "timed out" in text(log).lower(), 10)
        times = frame_times(video)
        intervals = [b - a for a, b in zip(times[30:], times[31:])]
        lines = [l for l in text(log).splitlines() if "feed" in l and "localhost" in l and "retrying" in l]
        check("stalled: a TLS server that stops mid-body is one line, and the kiosk draws and answers meanwhile",
              bool(said) and len(stalls) >= 1 and len(lines) == 1 and p99(intervals) <= 2 / 30 and max(latencies) < GET_ANSWER_LIMIT,
              f"({len(stalls)} requests, {len(times)} frames, interval p99 {p99(intervals) * 1000:.1f} ms, "
              f"get at most {max(latencies) * 1000:.0f} ms) " + " / ".join(lines))
    finally:
        stop(proc)
        stalled.set()

    # 429 with Retry-After: 7: the next request no sooner than 7 s after.
    proc, sock, log = start_kiosk("limited", f"https://localhost:{good}/limited.json", "ca")
    try:
        two = wait_for(lambda: len(requests(good, "/limited.json")) >= 2, 30)
        times = [r[0] for r in requests(good, "/limited.json")]
        gap = times[1] - times[0] if len(times) >= 2 else 0
        check(f"limited: the second request came {gap:.2f} s after the 429 asking for 7 s", two and gap >= 6.9, repr(times))
        check("limited: one line says the server asks for fewer requests",
              text(log).count("HTTP 429: the server asks for fewer requests") == 1, text(log)[-300:])
    finally:
        stop(proc)

    # 403: minutes of backoff.
    proc, sock, log = start_kiosk("forbidden", f"https://localhost:{good}/forbidden.json", "ca")
    try:
        first = wait_for(lambda: len(requests(good, "/forbidden.json")) >= 1, 20)
        again = wait_for(lambda: len(requests(good, "/forbidden.json")) >= 2, 20)
        check("forbidden: after a 403, no second request within 20 s", first and not again, repr(requests(good, "/forbidden.json")))
        check("forbidden: one line says access is refused for minutes",
              "HTTP 403: access refused; next try in 10 minutes" in text(log), text(log)[-300:])
    finally:
        stop(proc)

    # The presets, side by side, for a minute of requests. The answers change
    # as a live service's do (its "now"), or the kiosk would rightly call the data stuck.
    live = threading.Event()

    def keep_answers_live():
        while not live.wait(0.5):
            for name, body in (("aircraft.json", original), ("away.json", away)):
                stamped = body.replace('"now" : 1643337806.2', f'"now" : {time.time():.1f}', 1)
                temp = os.path.join(www, "data", f".{name}.tmp")
                with open(temp, "w") as f:
                    f.write(stamped)
                os.chmod(temp, 0o644)
                os.rename(temp, os.path.join(www, "data", name))
    threading.Thread(target=keep_answers_live, daemon=True).start()
    origin = {"RADAR_KIOSK_AGGREGATOR_ORIGIN": f"https://localhost:{good}"}
    lol = start_kiosk("adsb.lol", "adsb.lol", "ca", origin)
    fi = start_kiosk("adsb.fi", "adsb.fi", "ca", origin)
    try:
        began = time.time()
        lol_shown = wait_for(lambda: shown(lol[1]) == ("overflight", "LXJ440"), 30)
        fi_traffic = wait_for(lambda: (get(fi[1])[0] or {}).get("mode") == "standby" and len(requests(good, "/api/v2/lat/", True)) >= 2, 30)
        wait_for(lambda: time.time() - began >= 60, 70)
        for name, path, interval, proc in [("adsb.lol", "/v2/point/33.6350/-117.8422/40", 5, lol[0]),
                                           ("adsb.fi", "/api/v2/lat/33.6350/lon/-117.8422/dist/40", 1, fi[0])]:
            seen = requests(good, path.split("/33")[0] + "/", True)
            gaps = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
            asked = all(path in line for line in open(access_log) if path.split("/33")[0] + "/" in line)
            check(f"{name}: {len(seen)} requests in 60 s, each for the station within 40 NM", asked and len(seen) >= 0.8 * 60 / interval,
                  f"{len(seen)} requests; " + repr([line for line in open(access_log) if path.split('/33')[0] in line][:2]))
            check(f"{name}: never faster than one per {interval} s (shortest gap {min(gaps or [0]):.3f} s)",
                  gaps and min(gaps) >= interval, repr([round(g, 3) for g in gaps]))
            check(f"{name}: every request says it is radar-kiosk", all(r[3].startswith("radar-kiosk/0.") for r in seen),
                  repr({r[3] for r in seen}))
            check(f"{name}: the kiosk is still running", proc.poll() is None)
        check("adsb.lol: the aircraft overhead it reports is shown (LXJ440)", lol_shown, text(lol[2])[-300:])
        check("adsb.fi: the traffic it reports is shown, in standby", fi_traffic and "retrying" not in text(fi[2]), text(fi[2])[-300:])
        check("the log calls each service by its name", "adsb.lol" in text(lol[2]) and "adsb.fi" in text(fi[2]),
              text(lol[2])[-200:] + text(fi[2])[-200:])
    finally:
        live.set()
        stop(lol[0])
        stop(fi[0])
finally:
    nginx.terminate()
    try:
        nginx.wait(10)
    except subprocess.TimeoutExpired:
        nginx.kill()

if not os.environ.get("KEEP"):
    shutil.rmtree(work, ignore_errors=True)
print(f"https: {tally.passed} passed, {tally.failed} failed", flush=True)
sys.exit(1 if tally.failed else 0)
