"""The serial bridge's exceptions: one root, leaves that carry the facts as fields."""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by firmware_bridge."""


class PortUnavailable(BridgeError, OSError):
    """The serial port could not be opened (missing device, permissions, busy)."""

    def __init__(self, port: str, reason: str) -> None:
        super().__init__(f"cannot open serial port {port!r}: {reason}")
        self.port = port
        self.reason = reason


class LinkClosed(BridgeError):
    """The link was used after close()."""

    def __init__(self, port: str) -> None:
        super().__init__(f"display link on {port!r} is closed")
        self.port = port


class LinkTimeout(BridgeError, TimeoutError):
    """Waited `timeout` seconds for `what` (e.g. "acknowledgement") on `port`."""

    def __init__(self, port: str, what: str, timeout: float) -> None:
        super().__init__(f"no {what} from the board on {port!r} within {timeout:.1f} s")
        self.port = port
        self.what = what
        self.timeout = timeout


class HandshakeFailed(BridgeError):
    """Host and board speak different protocol versions: reflash the board."""

    def __init__(self, version_host: int, version_board: int, port: str = "") -> None:
        super().__init__(
            f"board on {port!r} speaks protocol version {version_board}, "
            f"the host speaks {version_host}: flash the firmware from this checkout"
        )
        self.version_host = version_host
        self.version_board = version_board
        self.port = port


class FrameError(BridgeError, ValueError):
    """A received frame that cannot be trusted; it is dropped and counted, never acted on.

    `reason` is one of "cobs", "short", "length", "crc", "overflow"; `raw` holds the
    bytes as received (COBS-encoded, without the delimiter).
    """

    def __init__(self, reason: str, raw: bytes) -> None:
        shown = raw[:24].hex(" ") + ("..." if len(raw) > 24 else "")
        super().__init__(f"bad frame ({reason}): {shown}")
        self.reason = reason
        self.raw = bytes(raw)
