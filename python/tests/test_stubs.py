"""The committed type stubs list every function with its current documentation."""

import subprocess
import sys

from conftest import REPO

import datafusion_webtext as webtext


def test_the_stubs_are_up_to_date():
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "update_python_stubs.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_the_stubs_name_every_function():
    stubs = (REPO / "python" / "datafusion_webtext" / "__init__.pyi").read_text()
    for name, function in webtext.FUNCTIONS.items():
        assert f"\n{name}: {type(function).__name__}\n" in stubs
