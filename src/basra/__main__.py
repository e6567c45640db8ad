"""``python -m basra`` is the same as the ``basra`` command."""

import sys

from basra.cli import main

sys.exit(main())
