"""The table's outputs and buttons on the Pi's GPIO, and the shared `TableDisplay`.

Nothing here knows a game's rules. Modules are imported by name (`hardware.outputs`,
`hardware.buttons`, ...); this package imports nothing, so `hardware.display_state`
stays cheap for the serial bridge. See hardware/README.md.
"""
