"""The toolkit's version, written once: pyproject.toml reads it (setuptools' dynamic version) and
report.json records it."""
VERSION = "0.3.0"
