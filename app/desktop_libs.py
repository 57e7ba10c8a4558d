"""Before the app opens a window on Linux: are the system libraries Qt's xcb platform plugin needs
installed? Qt itself aborts (exit 134) naming ``libxcb-cursor0`` even when what is missing is
``libxcb-icccm4`` or ``libxcb-keysyms1``; ``ldd`` on the plugin names the real ones, and this
turns them into the exact install command.

``python -m app.desktop_libs [--plugin PATH]``: exit 0 when nothing is missing (or the check does
not apply: not Linux, another platform plugin chosen, no ``ldd``), 1 with the command otherwise.
``make run`` runs it first.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Debian/Ubuntu package of each library the xcb plugin may miss (the rest follow the naming rule).
PACKAGES = {
    "libX11-xcb.so.1": "libx11-xcb1", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libOpenGL.so.0": "libopengl0",
    "libdbus-1.so.3": "libdbus-1-3", "libSM.so.6": "libsm6", "libICE.so.6": "libice6",
}
NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.MULTILINE)


def xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")  # the package's folder, without loading Qt
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(next(iter(spec.submodule_search_locations))) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries ``ldd`` cannot find for ``plugin`` (sorted, each once)."""
    done = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, timeout=30, check=False)
    return sorted(set(NOT_FOUND.findall(done.stdout)))


def debian_package(soname: str) -> str:
    """``libxcb-icccm.so.4`` → ``libxcb-icccm4``; ``libxcb-render-util.so.0`` → ``libxcb-render-util0``."""
    if soname in PACKAGES:
        return PACKAGES[soname]
    stem, _, version = soname.partition(".so.")
    major = version.split(".")[0]
    stem = stem.lower()
    return f"{stem}-{major}" if stem[-1:].isdigit() else f"{stem}{major}"


def install_command(sonames: list[str]) -> str:
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install -y " + " ".join(sorted({debian_package(s) for s in sonames}))


def check(plugin: Path | None) -> int:
    if plugin is None or shutil.which("ldd") is None:
        return 0
    missing = missing_libraries(plugin)
    if not missing:
        return 0
    print(f"tripwright: the desktop needs system libraries that are not installed: {', '.join(missing)}\n"
          f"  install them with:  {install_command(missing)}", file=sys.stderr)
    return 1


def applies(environ=os.environ) -> bool:
    """Only a Linux desktop session that will use xcb (not offscreen, not Wayland)."""
    platform = environ.get("QT_QPA_PLATFORM", "")
    return sys.platform.startswith("linux") and platform in ("", "xcb") and not (
        platform == "" and environ.get("WAYLAND_DISPLAY") and not environ.get("DISPLAY"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.desktop_libs", description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", type=Path, help="the Qt platform plugin to check (default: PySide6's xcb)")
    args = parser.parse_args(argv)
    if args.plugin is not None:
        return check(args.plugin)
    return check(xcb_plugin()) if applies() else 0


if __name__ == "__main__":
    raise SystemExit(main())


def prepare_environment() -> None:
    """What QtWebEngine needs before it starts (the app and the offscreen PDF alike): its
    sandbox refuses to start as root, and the process would exit 1."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
