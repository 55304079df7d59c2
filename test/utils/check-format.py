"""Checks that the C sources of the tree follow its .clang-format: every
.c and .h file under the given folders except test inputs (Inputs/,
whose text tests check), through clang-format --dry-run -Werror. Prints
the files out of style with clang-format's first complaint; exit status
1 if there is one.

usage: check-format.py CLANG_FORMAT SOURCE_ROOT FOLDER..."""
import os
import subprocess
import sys


def sources(root, folders):
    for folder in folders:
        for top, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if d != "Inputs")
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.join(top, name)


def main():
    tool, root, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    checked = 0
    for path in sources(root, folders):
        checked += 1
        proc = subprocess.run([tool, "--dry-run", "-Werror", path],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            bad += 1
            first = (proc.stderr.strip().splitlines() or ["?"])[0]
            print(f"out of style: {os.path.relpath(path, root)}: {first}")
    print(f"{checked} files checked, {bad} out of style")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
