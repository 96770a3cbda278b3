"""MQTT 3.1.1 packets written by hand, for the tests that play a broker or a
client badly on purpose (a library would refuse to misbehave)."""


def remaining_length(n):
    """The variable-length encoding of a packet's remaining length."""
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def publish(topic, payload, retain=False):
    """A QoS 0 PUBLISH of `payload` (bytes or text) on `topic`."""
    body = len(topic.encode()).to_bytes(2, "big") + topic.encode() + (payload.encode() if isinstance(payload, str) else payload)
    return bytes([0x31 if retain else 0x30]) + remaining_length(len(body)) + body
