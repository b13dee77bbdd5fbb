"""``python -m novikoff.cli``: the same as the ``novikoff`` console script."""

import sys

from novikoff.cli.app import main

sys.exit(main())
