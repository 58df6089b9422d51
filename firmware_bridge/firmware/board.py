"""The board's logic: decode host frames, apply states, heartbeat, render outputs.

Runs unchanged on the Pico (main.py wires it to USB serial, the WS2812 strip and the
TM1637 displays) and under CPython in the simulator (firmware_bridge/simulator.py
wires it to a pty and to recording drivers). It therefore uses only the MicroPython
subset, and everything it touches from outside comes in through the constructor:

- `send(data)`: write bytes to the host;
- `strip`: `strip[i] = (r, g, b)` and `strip.write()` (the neopixel API);
- `displays`: two objects with `show(text)` (a TM1637 or a simulated one);
- `buzzer`: `play(pattern)` with a pattern name from protocol.BUZZES;
- `clock`: an object with `ticks_ms()` and `ticks_diff(a, b)` (time on the Pico).

Nothing here acts on a frame that fails COBS, length or CRC checks, on a resent or
duplicated frame, or on a state older than the one shown.
"""

try:
    from firmware_bridge.firmware import protocol
except ImportError:  # on the Pico the files sit side by side
    import protocol

FIRMWARE_NAME = b"cardtable-pico 0.1"

# LED strip layout: seats first, then the four trump suit LEDs, then the status LED.
SEAT_LEDS = protocol.MAX_SEATS
TRUMP_LED0 = SEAT_LEDS
STATUS_LED = SEAT_LEDS + 4
STRIP_LENGTH = STATUS_LED + 1
TRUMP_COLOURS = {"C": (0, 40, 0), "D": (60, 20, 0), "H": (60, 0, 0), "S": (0, 0, 60)}
STATUS_COLOURS = {
    "ready": (0, 40, 0),
    "watching": (0, 0, 40),
    "no_table": (50, 30, 0),
    "link_lost": (60, 0, 0),
}


class Board:
    """The firmware's state machine. Feed it bytes and call tick() often."""

    def __init__(self, send, strip, displays, buzzer, clock,
                 version=protocol.PROTOCOL_VERSION, on_apply=None, on_change=None):
        self._send = send
        self._strip = strip
        self._displays = displays
        self._buzzer = buzzer
        self._clock = clock
        self.version = version
        self._on_apply = on_apply  # called with each applied state (tests, simulator)
        self._on_change = on_change  # called when what the board shows changes
        self._reader = protocol.FrameReader()
        self._tx_seq = 0
        now = clock.ticks_ms()
        self._last_rx = now
        self._last_hb = now
        self._session = False  # a HELLO with our version was received
        self._hello = None  # (seq, payload) of the HELLO that opened this session
        self._last_state_seq = 0
        self._last_rx_seq = None
        self._last_buzz_id = None
        self._valid = False  # a state from the host is on show
        self._pixels = None  # last written to the strip
        self._texts = [None, None]  # last written to the displays
        self.link_up = False
        self.shown = protocol.blank_state(4)
        self.counters = {"frames": 0, "applied": 0, "garbage": 0, "crc_errors": 0,
                         "duplicates": 0, "ignored": 0}
        self._render(now)

    # --- input ----------------------------------------------------------------

    def feed(self, data):
        """Process bytes received from the host. Never raises on bad input."""
        for encoded in self._reader.feed(data):
            self.handle_encoded(encoded)
        self.counters["garbage"] += self._reader.overflows
        self._reader.overflows = 0

    def handle_encoded(self, encoded):
        """Process one COBS-encoded frame (without its 0x00 delimiter)."""
        try:
            body = protocol.cobs_decode(encoded)
            seq, cmd, payload = protocol.check_body(body, protocol.crc16)
        except protocol.ProtocolError as exc:
            if exc.reason == "crc":
                self.counters["crc_errors"] += 1
            else:
                self.counters["garbage"] += 1
            return
        self.counters["frames"] += 1
        self._last_rx = self._clock.ticks_ms()
        if cmd == protocol.CMD_HELLO:
            self._on_hello(seq, payload)
        elif cmd == protocol.CMD_STATE:
            self._on_state(seq, payload)
        elif cmd == protocol.CMD_HEARTBEAT:
            if seq == self._last_rx_seq:
                self.counters["duplicates"] += 1
        else:
            self.counters["ignored"] += 1
        self._last_rx_seq = seq
        if not self.link_up:
            self._set_link(True)

    def _on_hello(self, seq, payload):
        if len(payload) != protocol.HELLO_LEN:
            self.counters["garbage"] += 1
            return
        # The random session number tells a resent HELLO from a new host's HELLO that
        # happens to reuse the same seq.
        hello = (seq, payload)
        if hello == self._hello:
            self.counters["duplicates"] += 1  # resent HELLO: answer again, change nothing
        else:
            self._hello = hello
            self._session = payload[0] == self.version
            self._last_state_seq = seq
        reply = bytes([seq >> 8, seq & 0xFF, self.version, SEAT_LEDS]) + FIRMWARE_NAME
        self._transmit(protocol.CMD_HELLO_REPLY, reply)

    def _on_state(self, seq, payload):
        if not self._session:
            self.counters["ignored"] += 1  # no handshake (or a version mismatch)
            return
        if not protocol.seq_newer(seq, self._last_state_seq):
            self.counters["duplicates"] += 1  # a resend: our ACK was lost; ack again
            self._transmit(protocol.CMD_ACK, bytes([seq >> 8, seq & 0xFF]))
            return
        try:
            state = protocol.decode_state(payload)
        except protocol.ProtocolError:
            self.counters["garbage"] += 1
            return
        self._last_state_seq = seq
        self.counters["applied"] += 1
        if self._last_buzz_id is not None and state["buzz_id"] != self._last_buzz_id:
            if state["buzz"] != "none":
                self._buzzer.play(state["buzz"])
        self._last_buzz_id = state["buzz_id"]
        if self._on_apply is not None:
            self._on_apply(state)
        self._valid = True
        self._show(state)
        # Acknowledge only once it is on show: an ACK means "the table shows this now".
        self._transmit(protocol.CMD_ACK, bytes([seq >> 8, seq & 0xFF]))

    # --- time -------------------------------------------------------------------

    def tick(self):
        """Heartbeat, link supervision and LED animation; call every few ms."""
        clock = self._clock
        now = clock.ticks_ms()
        if clock.ticks_diff(now, self._last_hb) >= protocol.HEARTBEAT_MS:
            flags = 0 if self._valid else protocol.FLAG_NEED_STATE
            if not self._session:
                flags |= protocol.FLAG_NO_SESSION
            seq = self._last_state_seq
            self._transmit(protocol.CMD_HEARTBEAT, bytes([flags, seq >> 8, seq & 0xFF]))
            self._last_hb = now
        if self.link_up and clock.ticks_diff(now, self._last_rx) >= protocol.BOARD_LINK_TIMEOUT_MS:
            self._set_link(False)
        self._render(now)

    def _set_link(self, up):
        self.link_up = up
        if not up and self._valid:
            # Never leave something false on show: blank everything, status LED red,
            # and ask for the state again (FLAG_NEED_STATE) when the host is back.
            self._valid = False
            self._last_buzz_id = None
            self._show(protocol.blank_state(len(self.shown["seats"])))
        elif self._on_change is not None:
            self._on_change(self.shown, self.link_up)

    def _transmit(self, cmd, payload):
        self._send(protocol.build_frame(self._tx_seq, cmd, payload))
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF

    # --- output -----------------------------------------------------------------

    def _show(self, state):
        self.shown = state
        self._render(self._clock.ticks_ms())
        if self._on_change is not None:
            self._on_change(state, self.link_up)

    def _render(self, now):
        state = self.shown
        phase = now % 1000
        pixels = []
        for i in range(SEAT_LEDS):
            colour = (0, 0, 0)
            if i < len(state["seats"]):
                seat = state["seats"][i]
                colour = _animate(seat["mode"], seat["colour"], phase)
            pixels.append(colour)
        for i in range(4):
            suit = protocol.TRUMPS[i + 1]
            pixels.append(TRUMP_COLOURS[suit] if state["trump"] == suit else (0, 0, 0))
        pixels.append(STATUS_COLOURS[state["status"]])
        if pixels != self._pixels:  # WS2812 and TM1637 writes cost time: only on change
            for i in range(STRIP_LENGTH):
                self._strip[i] = pixels[i]
            self._strip.write()
            self._pixels = pixels
        for i in range(2):
            text = state["displays"][i]
            if text != self._texts[i]:
                self._displays[i].show(text)
                self._texts[i] = text


def _animate(mode, colour, phase):
    """The colour an LED shows at `phase` ms into the current second."""
    if mode == "on":
        return (colour[0], colour[1], colour[2])
    if mode == "blink":  # 2 Hz
        return (colour[0], colour[1], colour[2]) if phase % 500 < 250 else (0, 0, 0)
    if mode == "pulse":  # triangle wave, 1 s period
        level = phase if phase < 500 else 1000 - phase
        return (colour[0] * level // 500, colour[1] * level // 500, colour[2] * level // 500)
    return (0, 0, 0)
