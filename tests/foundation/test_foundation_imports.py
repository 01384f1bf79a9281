"""A signed-in page runs only once the services' imports are done (app.py waits on ui/startup.py's
``wait_until_imported``): two threads importing the same package for the first time can each get it half-made.
A clean-clone run (session 18) showed it: the employee's home failed on "cannot import name 'WRatio' from
partially initialized module 'rapidfuzz.fuzz'" while the services thread imported the same package, and the
services — the chat among them — never started. This checks the other half: the services' import phase holds
every package the homes, the course player and the tutor page bring in beyond a bare Streamlit server's."""

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOMES = ("pages/home_employee.py", "pages/home_admin.py", "pages/course_player.py", "pages/tutor.py")

CHILD = """
import sys
from ui import startup
startup.import_services()
print(" ".join(sorted(sys.modules)))
"""


def _third_party_imported_by(path: str) -> set[str]:
    """The packages outside the repository that the modules ``path`` imports bring in, beyond what a Streamlit
    server has loaded before any page runs."""
    modules, maybe = set(), set()  # "from X import Y" imports X, and X.Y when Y is a module
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            modules.add(node.module)
            maybe |= {f"{node.module}.{alias.name}" for alias in node.names}
    code = (
        "import sys, streamlit.web.bootstrap, streamlit.runtime.scriptrunner\nserver = set(sys.modules)\n"
        + "".join(f"import {name}\n" for name in sorted(modules))
        + "".join(f"try:\n    import {name}\nexcept ModuleNotFoundError:\n    pass\n" for name in sorted(maybe))
        + "print(' '.join(set(sys.modules) - server))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    ours = {p.name for p in ROOT.iterdir()} | {p.stem for p in ROOT.glob("*.py")}
    return {name.split(".")[0] for name in done.stdout.split()} - ours - set(sys.stdlib_module_names)


def test_the_services_import_every_package_a_first_signed_in_page_imports(db_url):
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {name.split(".")[0] for name in done.stdout.split()}
    for home in HOMES:
        missing = _third_party_imported_by(home) - imported
        assert not missing, f"{home} would import {sorted(missing)} first, beside the services' imports"
    assert {"rapidfuzz", "gradio", "pandas", "langchain_core"} <= imported
