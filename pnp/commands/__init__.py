"""One module per command; ``COMMANDS`` lists them in the order ``pnp --help`` shows.

Each entry names the module (in this package) and the click command in it.  A
command's module is imported only when that command runs (or for ``pnp --help``),
so ``pnp build`` does not pay for the validator's imports, nor ``pnp validate``
for the generator's.
"""

COMMANDS = {
    "new": "new",
    "check": "check",
    "build": "build",
    "calibrate": "calibrate",
    "validate": "validate",
    "export": "export",
    "watch": "watch",
    "preview": "preview",
    "clean": "clean",
}
