"""Test-wide settings.

Under CI (``CI=true``) hypothesis draws the same examples every run, so a green
main stays green; locally it keeps exploring new ones."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
