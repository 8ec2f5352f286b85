"""Fixtures several test modules share."""
import pytest

from tests.chromium import launch, need_chromium


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright, one per module (the module is skipped when it is missing)."""
    yield from launch(need_chromium())
