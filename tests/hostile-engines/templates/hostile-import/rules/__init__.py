"""An engine that ends the process as it is imported (a hostile-engines test of pnp)."""

import os
import sys

if os.environ.get("PNP_HOSTILE_MARK"):  # a test learns whether anything imported it
    open(os.environ["PNP_HOSTILE_MARK"], "w").close()
sys.exit(3)
