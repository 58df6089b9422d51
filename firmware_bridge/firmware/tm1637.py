"""A small bit-banged driver for TM1637 4-digit 7-segment displays.

The TM1637 speaks a two-wire protocol that looks like I2C but is not (no address,
LSB first), so the Pico's I2C block cannot drive it; two GPIO pins toggled by hand do.
The pins and the microsecond delay are passed in, so this module imports nothing from
`machine` and its encoding and wire sequence can be checked under CPython.
"""

# Segment bits: a=0x01 b=0x02 c=0x04 d=0x08 e=0x10 f=0x20 g=0x40, dp=0x80.
FONT = {
    " ": 0x00, "-": 0x40, "_": 0x08,
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    "A": 0x77, "B": 0x7C, "C": 0x39, "D": 0x5E, "E": 0x79, "F": 0x71, "G": 0x3D,
    "H": 0x76, "I": 0x06, "J": 0x1E, "L": 0x38, "N": 0x37, "O": 0x3F, "P": 0x73,
    "Q": 0x67, "R": 0x50, "S": 0x6D, "T": 0x78, "U": 0x3E, "Y": 0x6E,
    "a": 0x5F, "b": 0x7C, "c": 0x58, "d": 0x5E, "e": 0x7B, "f": 0x71, "g": 0x6F,
    "h": 0x74, "i": 0x10, "j": 0x0E, "l": 0x30, "n": 0x54, "o": 0x5C, "p": 0x73,
    "q": 0x67, "r": 0x50, "s": 0x6D, "t": 0x78, "u": 0x1C, "y": 0x6E,
}
WIDTH = 4
CMD_DATA_AUTO = 0x40  # write display data, auto-increment address
CMD_ADDRESS = 0xC0  # start at digit 0
CMD_DISPLAY_ON = 0x88  # | brightness 0..7


def encode_text(text):
    """Right-align `text` in 4 digits and return the 4 segment bytes."""
    text = text[-WIDTH:]
    text = " " * (WIDTH - len(text)) + text
    return bytes([FONT.get(char, 0x00) for char in text])


class TM1637:
    """One display on two pins. `clk` and `dio` are output pins with value(v)."""

    def __init__(self, clk, dio, delay_us, brightness=4):
        self._clk = clk
        self._dio = dio
        self._delay = delay_us
        self._brightness = brightness & 7
        clk.value(1)
        dio.value(1)

    def show(self, text):
        """Show up to 4 characters, right-aligned; "" blanks the display."""
        self.write_segments(encode_text(text))

    def write_segments(self, segments):
        self._start()
        self._byte(CMD_DATA_AUTO)
        self._stop()
        self._start()
        self._byte(CMD_ADDRESS)
        for seg in segments:
            self._byte(seg)
        self._stop()
        self._start()
        self._byte(CMD_DISPLAY_ON | self._brightness)
        self._stop()

    def _start(self):
        self._dio.value(0)
        self._delay(5)
        self._clk.value(0)
        self._delay(5)

    def _stop(self):
        self._dio.value(0)
        self._delay(5)
        self._clk.value(1)
        self._delay(5)
        self._dio.value(1)

    def _byte(self, byte):
        for i in range(8):
            self._dio.value((byte >> i) & 1)
            self._delay(5)
            self._clk.value(1)
            self._delay(5)
            self._clk.value(0)
            self._delay(5)
        # Ninth clock: the chip pulls DIO low to acknowledge; we do not read it back
        # (an unplugged display must not stall the board).
        self._clk.value(1)
        self._delay(5)
        self._clk.value(0)
        self._delay(5)
