#!/usr/bin/env python3
"""The kiosk in a real Home Assistant, as a user meets it on the first evening.

Home Assistant (HA_VERSION, from PyPI, on Python 3.13) is installed once into
a virtual environment in the cache outside the clone (RADAR_KIOSK_CACHE,
/var/cache/radar-kiosk by default), then started here with Debian's
mosquitto. The MQTT integration is added through Home Assistant's own config
flow over its REST API, as the UI does, and everything is checked through
that REST API: discovery, the entities' classes and availability, states
following an overflight from a file feed and back, service calls reaching the
kiosk (the screen's switch, mode, brightness and wake), an automation on the
overflight event firing once per overflight, two kiosks on one broker as two
devices, the will, and restarts of the kiosk, the broker and Home Assistant.
Home Assistant's log must hold no warning or error naming the kiosk.
Usage: homeassistant.py PATH/radar-kiosk"""
import glob, json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time, urllib.parse, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loopback import Tally, free_port  # noqa: E402
from waiting import wait_for, wait_until_steady  # noqa: E402
from control import command, stop  # noqa: E402
from broker import password_broker, start_mosquitto  # noqa: E402

HA_VERSION = "2025.4.4"
PAHO_VERSION = "2.1.0"   # what HA_VERSION's MQTT integration asks for
kiosk_binary = sys.argv[1]
cache = os.environ.get("RADAR_KIOSK_CACHE", "/var/cache/radar-kiosk")
work = tempfile.mkdtemp(prefix="rk-ha-")
tally = Tally()
check = tally.check




def python313():
    """Home Assistant HA_VERSION needs Python 3.13: pyenv's, or one on the PATH (a pyenv shim may name one it cannot run)."""
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.13*/bin/python3")), reverse=True) \
        + sorted(glob.glob("/root/.pyenv/versions/3.13*/bin/python3"), reverse=True) + [shutil.which("python3.13"), "/usr/bin/python3.13"]
    for candidate in filter(None, candidates):
        try:
            version = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2] == (3, 13))"],
                                     capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            continue
        if version == "True":
            return candidate
    return None


def home_assistant():
    """The virtual environment with Home Assistant, made once (about 600 MB, a few minutes)."""
    venv = os.path.join(cache, f"homeassistant-{HA_VERSION}")
    done = os.path.join(venv, "installed")
    if not os.path.exists(done):
        python = python313()
        if not python:
            print("homeassistant.py: Home Assistant {HA_VERSION} needs Python 3.13 (python3.13 on the PATH, or pyenv's ~/.pyenv/versions/3.13.*); none found".format(HA_VERSION=HA_VERSION),
                  file=sys.stderr)
            sys.exit(2)
        print(f"== installing Home Assistant {HA_VERSION} from PyPI into {venv} (once)", file=sys.stderr, flush=True)
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([python, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--disable-pip-version-check",
                        f"homeassistant=={HA_VERSION}", f"paho-mqtt=={PAHO_VERSION}"], check=True)
        open(done, "w").write(HA_VERSION + "\n")
    return os.path.join(venv, "bin", "hass")


hass = home_assistant()

# The broker, with a password as a home broker has.
MQTT_PORT = free_port()
USER, PASSWORD = "kiosk", "s3cret-pass"
# $SYS every second: how many subscriptions Home Assistant has made (see subscribed()).
password_broker(work, MQTT_PORT, USER, PASSWORD, extra="sys_interval 1\n")


def start_broker():
    return start_mosquitto(os.path.join(work, "mosquitto.conf"), MQTT_PORT, os.path.join(work, "broker.log"))


# Home Assistant: a configuration of its own integrations only (no default_config, so nothing else is fetched).
HA_PORT = free_port()
ha_dir = os.path.join(work, "ha")
os.makedirs(ha_dir)
open(os.path.join(ha_dir, "configuration.yaml"), "w").write(f"""
homeassistant:
  name: Test home
  latitude: 33.635029
  longitude: -117.842218
  elevation: 10
  unit_system: us_customary
  time_zone: UTC
  country: US
  currency: USD
http:
  server_host: 127.0.0.1
  server_port: {HA_PORT}
api:
onboarding:
config:
input_number:
  overflights:
    name: Overflights counted
    min: 0
    max: 100000
automation: !include automations.yaml
logger:
  default: warning
""")
open(os.path.join(ha_dir, "automations.yaml"), "w").write("[]\n")
HA_URL = f"http://127.0.0.1:{HA_PORT}"
token = None


class HomeAssistant:
    def __init__(self):
        self.out = open(os.path.join(work, "ha.out"), "a")
        self.proc = subprocess.Popen([hass, "-c", ha_dir], stdin=subprocess.DEVNULL, stdout=self.out, stderr=self.out)
        up = wait_for(lambda: self.answers(), 240, step=0.5)
        if not up:
            raise RuntimeError("Home Assistant did not start within 240 s: " + open(os.path.join(work, "ha.out")).read()[-2000:])

    def answers(self):
        if self.proc.poll() is not None:
            raise RuntimeError("Home Assistant exited: " + open(os.path.join(work, "ha.out")).read()[-2000:])
        try:
            urllib.request.urlopen(HA_URL + "/api/onboarding", timeout=2).read()
            return True
        except Exception:
            return False

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def http(method, path, body=None, form=None, auth=True):
    data = json.dumps(body).encode() if body is not None else (urllib.parse.urlencode(form).encode() if form else None)
    request = urllib.request.Request(HA_URL + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if auth:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode()
            return json.loads(text) if text.strip().startswith(("{", "[")) else text
    except urllib.error.HTTPError as error:
        return {"http_error": error.code, "body": error.read().decode()[:300]}




def onboard():
    """The first user, as the onboarding page makes it, and a token for the REST API."""
    global token
    client = HA_URL + "/"
    made = http("POST", "/api/onboarding/users", {"client_id": client, "name": "Test", "username": "test",
                                                   "password": "test-pass-1234", "language": "en"}, auth=False)
    tokens = http("POST", "/auth/token", form={"grant_type": "authorization_code", "code": made["auth_code"], "client_id": client}, auth=False)
    token = tokens["access_token"]
    return tokens


def state(entity):
    answer = http("GET", f"/api/states/{entity}")
    return None if "http_error" in answer else answer


def value(entity):
    s = state(entity)
    return s and s["state"]


def number(entity):
    """A number entity's state as a number (Home Assistant writes 40 or 40.0), None when it has none."""
    try:
        return float(value(entity))
    except (TypeError, ValueError):
        return None


def template(text):
    return http("POST", "/api/template", {"template": text})


def call(domain, service, data):
    return http("POST", f"/api/services/{domain}/{service}", data)


def kiosk_topics(base):
    """What the broker keeps under the kiosk's topic, for a failure's detail."""
    out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(MQTT_PORT), "-u", USER, "-P", PASSWORD, "-t", base + "/#", "-v",
                          "-W", "1", "--retained-only"], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if not l.startswith(base + "/state ")]


def subscriptions():
    """How many subscriptions the broker holds (its $SYS topic, said every second)."""
    out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(MQTT_PORT), "-u", USER, "-P", PASSWORD,
                          "-t", "$SYS/broker/subscriptions/count", "-C", "1", "-W", "3"], capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else None


def subscribed():
    """Waits until Home Assistant has made all its subscriptions (it makes them in batches after a
    connect): an event sent before then is lost to it, as MQTT keeps no events."""
    return wait_until_steady(subscriptions, 4, 90)


def ha_log_problems():
    """Warnings and errors in Home Assistant's log that name the kiosk."""
    text = open(os.path.join(work, "ha.out")).read()
    lines = [l for l in text.splitlines() if (" WARNING " in l or " ERROR " in l)]
    return [l for l in lines if any(word in l.lower() for word in ("radar", "kiosk", "study"))]


# A file feed, as readsb writes it: one aircraft overhead while `overhead` says so.
STATION = (33.635029, -117.842218)
feed_dir = os.path.join(work, "feed")
os.makedirs(feed_dir)
aircraft_json = os.path.join(feed_dir, "aircraft.json")
feed = {"overhead": None, "write": True}
feed_stopped = threading.Event()


def feed_writer():
    while not feed_stopped.is_set():
        if feed["write"]:
            planes = []
            if feed["overhead"]:
                callsign, alert = feed["overhead"]
                plane = {"hex": "a1b2c3", "flight": callsign.ljust(8), "lat": STATION[0] + 0.01, "lon": STATION[1] + 0.005,
                         "alt_baro": 2800, "gs": 180.4, "track": 95, "seen_pos": 0.2, "seen": 0.1, "category": "A3"}
                if alert:
                    plane["squawk"] = alert
                    plane["emergency"] = "general"
                planes.append(plane)
            temp = aircraft_json + ".tmp"
            open(temp, "w").write(json.dumps({"now": time.time(), "messages": 1000, "aircraft": planes}))
            os.rename(temp, aircraft_json)
        # readsb rewrites aircraft.json about twice a second; the pace ends the moment the test does.
        feed_stopped.wait(0.5)


threading.Thread(target=feed_writer, daemon=True).start()


class Kiosk:
    def __init__(self, name, client_id, topic, extra=""):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.sock = os.path.join(self.dir, "k.sock")
        self.conf = os.path.join(self.dir, "k.conf")
        open(self.conf, "w").write(
            f"display = headless\nsize = 160x96\nrefresh = 10\nkeyboard = none\nsocket = {self.sock}\n"
            f"mqtt.broker = 127.0.0.1:{MQTT_PORT}\nmqtt.username = {USER}\nmqtt.password_file = {work}/password\n"
            f"mqtt.client_id = {client_id}\nmqtt.topic = {topic}\noverflight_log = {self.dir}/overflights.jsonl\n" + extra)
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "log"), "a+")
        self.mark = self.log.tell()
        self.proc = subprocess.Popen([kiosk_binary, "run", "--config", self.conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        if not wait_for(lambda: "mqtt connected" in self.text(), 20):
            raise RuntimeError("the kiosk did not reach the broker: " + self.text())

    def text(self):
        self.log.flush()
        return open(self.log.name).read()[self.mark:]

    def screen(self):
        """The screen as `get` says it: "off", "on", or "on at N %"."""
        screen = command(self.sock, '{"cmd":"get"}').get("screen", {})
        brightness = screen.get("brightness", 100)
        return screen.get("power") if screen.get("power") == "off" or brightness == 100 else f"on at {brightness:.0f} %"

    def stop(self):
        stop(self.proc)


A = "radar_kiosk"   # entity ids of the first kiosk (client id radar-kiosk, the default)
B = "study"         # the second's
ENTITIES = ["binary_sensor.{}_overhead", "binary_sensor.{}_alert", "sensor.{}_callsign", "sensor.{}_type", "sensor.{}_route",
            "sensor.{}_distance", "sensor.{}_altitude", "sensor.{}_speed", "event.{}_overflight", "sensor.{}_overflights_today",
            "sensor.{}_last_overflight", "switch.{}_screen", "select.{}_screen_mode", "number.{}_brightness", "button.{}_wake"]

broker = ha = a = b = None
try:
    broker = start_broker()
    ha = HomeAssistant()
    onboard()
    flow = http("POST", "/api/config/config_entries/flow", {"handler": "mqtt", "show_advanced_options": False})
    entry = http("POST", f"/api/config/config_entries/flow/{flow.get('flow_id')}",
                 {"broker": "127.0.0.1", "port": MQTT_PORT, "username": USER, "password": PASSWORD})
    check("the MQTT integration added through Home Assistant's own config flow", entry.get("type") == "create_entry",
          f"({json.dumps(entry)[:300]})")

    # The first kiosk: the host's name, a file feed, an area.
    a = Kiosk("a", "radar-kiosk", "radar-kiosk",
              f"feed = {aircraft_json}\nstation = {STATION[0]},{STATION[1]}\noverhead.hold_s = 0\nmqtt.area = Living room\n")
    # The second: a name of its own, on only while overhead (so it starts with its screen off), no feed.
    b = Kiosk("b", "study", "study-kiosk", "mqtt.name = Study kiosk\nscreen.overhead_only = yes\nscreen.linger_s = 1\n")
    found = wait_for(lambda: all(state(e.format(A)) for e in ENTITIES) and all(state(e.format(B)) for e in ENTITIES), 60, step=0.5)
    check(f"discovery: Home Assistant makes {len(ENTITIES)} entities for each kiosk, under the entity ids the README gives",
          found, "(missing: " + ", ".join(e.format(k) for k in (A, B) for e in ENTITIES if not state(e.format(k))) + ")")

    hostname = socket.gethostname()
    names = template("{{ device_attr(device_id('switch.%s_screen'), 'name') }}|{{ device_attr(device_id('switch.%s_screen'), 'name') }}" % (A, B))
    check("two kiosks on one broker are two devices with their own names", names == f"Radar kiosk {hostname}|Study kiosk"
          and template("{{ device_id('switch.%s_screen') != device_id('switch.%s_screen') }}" % (A, B)) == "True", f"({names})")
    device = template("{% set d = device_id('sensor." + A + "_callsign') %}{{ device_attr(d, 'manufacturer') }}|{{ device_attr(d, 'model') }}|"
                      "{{ device_attr(d, 'sw_version') }}|{{ area_name(d) }}|{{ device_attr(d, 'configuration_url') }}")
    version = subprocess.run([kiosk_binary, "--version"], capture_output=True, text=True).stdout.split()[-1]
    check("the device says its maker, model and software version, and is put in its suggested area",
          device.lower() == f"radarkiosk|radar kiosk|{version}|living room|none", f"({device})")
    friendly = (state(f"sensor.{A}_callsign") or {}).get("attributes", {}).get("friendly_name")
    check("entity names begin with the device's name", friendly == f"Radar kiosk {hostname} Callsign", f"({friendly})")

    for key, device_class, unit in (("distance", "distance", "nmi"), ("altitude", "distance", "ft"), ("speed", "speed", "kn")):
        attrs = (state(f"sensor.{A}_{key}") or {}).get("attributes", {})
        check(f"sensor.{A}_{key}: device class {device_class}, state class measurement, so Home Assistant converts and keeps statistics",
              attrs.get("device_class") == device_class and attrs.get("state_class") == "measurement"
              and attrs.get("unit_of_measurement") is not None, f"({attrs})")
    overhead_attrs = (state(f"binary_sensor.{A}_overhead") or {}).get("attributes", {})
    check("the overhead binary sensor has a device class", overhead_attrs.get("device_class") == "occupancy", f"({overhead_attrs})")

    # Between aircraft: no text sensor reads "None".
    def idle_states():
        return {e.format(A): value(e.format(A)) for e in ENTITIES[2:8]}
    wait_for(lambda: all(v == "unavailable" for v in idle_states().values()) and value(f"binary_sensor.{A}_overhead") == "off", 15, step=0.3)
    idle = idle_states()
    check("between aircraft the aircraft's sensors are unavailable, never the text None", all(v == "unavailable" for v in idle.values())
          and value(f"binary_sensor.{A}_overhead") == "off", f"({idle}, overhead {value(f'binary_sensor.{A}_overhead')}, "
          f"the kiosk's topics {kiosk_topics('radar-kiosk')})")

    # The automation a user makes on the overflight event, through HA's REST API.
    created = http("POST", "/api/config/automation/config/count_overflights", {
        "alias": "Count overflights",
        "triggers": [{"trigger": "state", "entity_id": f"event.{A}_overflight", "not_from": ["unavailable"], "not_to": ["unavailable", "unknown"]}],
        "conditions": [{"condition": "template", "value_template": "{{ trigger.to_state.attributes.event_type == 'overflight_start' }}"}],
        "actions": [{"action": "input_number.increment", "target": {"entity_id": "input_number.overflights"}}],
        "mode": "queued"})
    ready = wait_for(lambda: value("automation.count_overflights") == "on", 30, step=0.5) and subscribed()
    check("an automation on the overflight event, made through the REST API", created == {"result": "ok"} and ready, f"({created})")

    # An overflight from the feed: states follow, and back.
    def overflight(callsign, alert=None):
        feed["overhead"] = (callsign, alert)
        shown = wait_for(lambda: value(f"sensor.{A}_callsign") == callsign, 30, step=0.3)
        snapshot = {e.format(A): state(e.format(A)) for e in ENTITIES}
        feed["overhead"] = None
        gone = wait_for(lambda: value(f"binary_sensor.{A}_overhead") == "off" and value(f"sensor.{A}_callsign") == "unavailable", 30, step=0.3)
        return shown, gone, snapshot

    shown, gone, seen = overflight("SWA1234")
    attrs = (seen.get(f"binary_sensor.{A}_overhead") or {}).get("attributes", {})
    distance = seen[f"sensor.{A}_distance"] or {}
    check("an overflight: overhead on with the aircraft as attributes, the sensors with its values",
          shown and seen[f"binary_sensor.{A}_overhead"]["state"] == "on" and attrs.get("callsign") == "SWA1234"
          and attrs.get("ground_speed_kt") == 180 and "bearing_deg" in attrs and seen[f"sensor.{A}_speed"]["state"] not in ("unavailable", "unknown")
          and seen[f"sensor.{A}_altitude"]["state"] not in ("unavailable", "unknown", "None"),
          f"(attributes {attrs}, distance {distance.get('state')} {distance.get('attributes', {}).get('unit_of_measurement')})")
    # Home Assistant converts: the house is in US units, the kiosk says nautical miles.
    check("distance converted by Home Assistant from the kiosk's nautical miles", distance.get("state") not in (None, "unavailable", "unknown")
          and float(distance["state"]) > 0, f"({distance.get('state')} {distance.get('attributes', {}).get('unit_of_measurement')})")
    check("and back: overhead off, the aircraft's sensors unavailable again", gone,
          f"(overhead {value(f'binary_sensor.{A}_overhead')}, callsign {value(f'sensor.{A}_callsign')})")
    counted = wait_for(lambda: value(f"sensor.{A}_overflights_today") == "1" and value(f"sensor.{A}_last_overflight") == "SWA1234", 15, step=0.3)
    check("today's overflights and the last one as sensors", counted,
          f"({value(f'sensor.{A}_overflights_today')}, {value(f'sensor.{A}_last_overflight')})")

    shown, gone, seen = overflight("AAL77", alert="7700")
    alert = seen.get(f"binary_sensor.{A}_alert") or {}
    check("an emergency squawk is the alert binary sensor, its reason an attribute", shown and gone and alert.get("state") == "on"
          and "7700" in str(alert.get("attributes", {}).get("reason")), f"({alert.get('state')}, {alert.get('attributes')})")
    check("and the alert is off once it has gone", value(f"binary_sensor.{A}_alert") == "off", f"({value(f'binary_sensor.{A}_alert')})")
    fired = wait_for(lambda: value("input_number.overflights") == "2.0", 15, step=0.3)
    check("the automation fired once per overflight (2)", fired, f"(counted {value('input_number.overflights')})")

    # The feed goes quiet: what is overhead is not known.
    feed["write"] = False
    os.unlink(aircraft_json)
    down = wait_for(lambda: value(f"binary_sensor.{A}_overhead") == "unavailable", 30, step=0.3)
    check("no live feed: the overhead and alert sensors unavailable, the screen's still available",
          down and value(f"binary_sensor.{A}_alert") == "unavailable" and value(f"switch.{A}_screen") == "on",
          f"(overhead {value(f'binary_sensor.{A}_overhead')})")
    feed["write"] = True
    check("the feed back: available again", wait_for(lambda: value(f"binary_sensor.{A}_overhead") == "off", 30, step=0.3),
          f"({value(f'binary_sensor.{A}_overhead')})")

    # Service calls reach the kiosk.
    call("switch", "turn_off", {"entity_id": f"switch.{A}_screen"})
    off = wait_for(lambda: a.screen() == "off" and value(f"switch.{A}_screen") == "off"
                   and value(f"select.{A}_screen_mode") == "off", 15, step=0.3)
    check("switch.turn_off turns the screen off; the mode select says off", off, f"(kiosk {a.screen()}, mode {value(f'select.{A}_screen_mode')})")
    call("number", "set_value", {"entity_id": f"number.{A}_brightness", "value": 40})
    set_dark = wait_for(lambda: number(f"number.{A}_brightness") == 40, 15, step=0.3)
    check("number.set_value while the screen is off: Home Assistant shows the value the kiosk took", set_dark,
          f"({value(f'number.{A}_brightness')})")
    call("select", "select_option", {"entity_id": f"select.{A}_screen_mode", "option": "auto"})
    auto = wait_for(lambda: value(f"select.{A}_screen_mode") == "auto" and value(f"switch.{A}_screen") == "on", 15, step=0.3)
    check("the mode select back to auto: the kiosk follows its own schedule again (on, at 40 %)", auto and a.screen() == "on at 40 %",
          f"(kiosk {a.screen()})")

    # The second kiosk starts with its screen off (on only while overhead): its brightness is known all the same.
    check("a kiosk that starts with its screen off publishes its brightness", number(f"number.{B}_brightness") == 100
          and value(f"switch.{B}_screen") == "off", f"({value(f'number.{B}_brightness')}, {value(f'switch.{B}_screen')})")
    call("switch", "turn_on", {"entity_id": f"switch.{B}_screen"})
    on = wait_for(lambda: value(f"switch.{B}_screen") == "on", 15, step=0.3)
    call("switch", "turn_off", {"entity_id": f"switch.{B}_screen"})
    forced = wait_for(lambda: value(f"switch.{B}_screen") == "off" and value(f"select.{B}_screen_mode") == "off", 15, step=0.3)
    call("select", "select_option", {"entity_id": f"select.{B}_screen_mode", "option": "auto"})
    back = wait_for(lambda: value(f"select.{B}_screen_mode") == "auto", 15, step=0.3)
    call("button", "press", {"entity_id": f"button.{B}_wake"})
    woken = wait_for(lambda: value(f"switch.{B}_screen") == "on", 15, step=0.3)
    slept = wait_for(lambda: value(f"switch.{B}_screen") == "off", 20, step=0.3)
    check("an overhead-only screen turned on and off from Home Assistant goes back to its schedule through the mode select; the wake button lights it for the linger",
          on and forced and back and woken and slept, f"(on {on}, forced {forced}, auto {back}, woken {woken}, dark again {slept})")

    # Stopped and started again: today's count comes back from the overflight log.
    a.stop()
    a.start()
    back = wait_for(lambda: value(f"switch.{A}_screen") == "on" and value(f"binary_sensor.{A}_overhead") == "off", 30, step=0.3)
    check("the kiosk restarted: available again, today's count as before (from its overflight log)",
          back and value(f"sensor.{A}_overflights_today") == "2", f"(screen {value(f'switch.{A}_screen')}, today {value(f'sensor.{A}_overflights_today')})")

    # The will: a kiosk that vanishes is unavailable; started again, it is back.
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait()
    gone = wait_for(lambda: value(f"switch.{A}_screen") == "unavailable" and value(f"binary_sensor.{A}_overhead") == "unavailable", 30, step=0.3)
    check("the kiosk killed: the broker's will makes its entities unavailable", gone, f"({value(f'switch.{A}_screen')})")
    a.start()
    back = wait_for(lambda: value(f"switch.{A}_screen") == "on" and value(f"binary_sensor.{A}_overhead") == "off", 30, step=0.3)
    check("the kiosk started again: available, its state as before", back and value(f"sensor.{A}_overflights_today") == "2",
          f"(screen {value(f'switch.{A}_screen')}, today {value(f'sensor.{A}_overflights_today')})")

    # The broker restarted: Home Assistant and the kiosk both come back.
    broker.send_signal(signal.SIGKILL)
    broker.wait()
    broker = start_broker()
    reconnected = wait_for(lambda: a.text().count("mqtt connected") >= 2, 60)
    # Home Assistant too: its entities back, and its subscriptions made again.
    reconnected = reconnected and wait_for(lambda: value(f"switch.{A}_screen") == "on", 60, step=0.3) and subscribed()
    shown, gone, seen = overflight("UAL9")
    fired = wait_for(lambda: value("input_number.overflights") == "3.0", 15, step=0.3)
    check("the broker killed and started again: states follow an overflight again, and the automation fires (3)",
          reconnected and shown and gone and fired, f"(reconnected {reconnected}, shown {shown}, gone {gone}, counted {value('input_number.overflights')}, event {state(f'event.{A}_overflight')})")

    # Home Assistant restarted: the entities come back with the kiosk's state.
    ha.stop()
    ha = HomeAssistant()
    restored = wait_for(lambda: value(f"switch.{A}_screen") == "on" and value(f"binary_sensor.{A}_overhead") == "off"
                        and value(f"sensor.{A}_overflights_today") == "3" and number(f"number.{B}_brightness") == 100, 90, step=0.5)
    check("Home Assistant restarted: the kiosks' entities come back with their state", restored,
          f"({value(f'switch.{A}_screen')}, {value(f'sensor.{A}_overflights_today')}, {value(f'number.{B}_brightness')})")
    subscribed()
    shown, gone, _ = overflight("JBU5")
    fired = wait_for(lambda: value("input_number.overflights") == "4.0", 15, step=0.3)
    check("after every restart the automation still fires exactly once per overflight (4)", shown and gone and fired,
          f"(counted {value('input_number.overflights')})")

    problems = ha_log_problems()
    check("Home Assistant's log holds no warning or error naming the kiosk", not problems, "\n  ".join([""] + problems[:10]))
except Exception as error:
    check("the Home Assistant test ran to its end", False, repr(error))
finally:
    feed_stopped.set()
    for k in (a, b):
        if k:
            k.stop()
    if ha:
        ha.stop()
    if broker:
        broker.kill()
        broker.wait()

print(f"homeassistant: {tally.passed} passed, {tally.failed} failed")
if tally.failed:
    print(f"(kept for a look: {work})")
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
