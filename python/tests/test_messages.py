"""gsync's exceptions carry libgsync's messages: on constraints files
mutated at random from a real one (seeded, so a failure names its case),
gsync.load() and the device check accept what libgsync, through
gsync-run --load-list, accepts, and refuse the rest with FormatError or
DeviceError and the message gsync-run prints. A mutation deletes a field or sets it
to a value of another kind or range. GSYNC_LOADER_MUTATIONS sets how many
(60 in the suite; a longer run is the same test with a larger number)."""
import json
import os
import random
import subprocess

import gsync
from test_constraints import original  # noqa: F401  (a fixture)

MUTATIONS = int(os.environ.get("GSYNC_LOADER_MUTATIONS", "60"))
SEED = int(os.environ.get("GSYNC_LOADER_SEED", "2026"))
VALUES = [None, -1, 0, 1, 3, 4096, 2**31, 2**32, 2**63, 10**30, 1.5, "",
          "x", "1.2", "-DX=1", [], {}, True, False, ["x"], [1], {"a": 1}]


def paths(doc, prefix=""):
    """Every field's dotted path, nested ones too."""
    items = (enumerate(doc) if isinstance(doc, list) else
             doc.items() if isinstance(doc, dict) else ())
    for key, value in items:
        path = f"{prefix}{key}"
        yield path
        yield from paths(value, path + ".")


def mutate(doc, path, value):
    """Sets the field at the dotted path to value, or deletes it (None)."""
    *parents, last = path.split(".")
    for p in parents:
        doc = doc[int(p)] if isinstance(doc, list) else doc[p]
    key = int(last) if isinstance(doc, list) else last
    if value is None:
        del doc[key]
    else:
        doc[key] = value


def libgsync_results(gsync_run, files, tmp_path):
    """For each file: None if libgsync loads it and finds the device fit,
    else its message (gsync-run --load-list, one process for all)."""
    listing = tmp_path / "files.txt"
    listing.write_text("".join(f"{js}\n" for js in files))
    r = subprocess.run([gsync_run, "--load-list", str(listing)],
                       capture_output=True, text=True,
                       errors="surrogateescape", timeout=120)
    said = {}
    for line in r.stdout.splitlines():
        path, _, rest = line.partition(": ")
        said[path] = None if rest == "loaded" else rest
    results = []
    for js in files:
        assert str(js) in said, r.stdout + r.stderr
        rest = said[str(js)]
        assert rest is None or rest.startswith("error: "), rest
        results.append(rest and rest[len("error: "):])
    return results


def gsync_result(js, device):
    try:
        gsync.load(js).check_device(device)
    except (gsync.FormatError, gsync.DeviceError) as e:
        return str(e)
    return None


def test_messages_reach_python(original, tmp_path, gsync_run,
                               device):  # noqa: F811
    _, doc = original
    every = list(paths(doc))
    r = random.Random(SEED)
    cases = []
    for i in range(MUTATIONS):
        d = json.loads(json.dumps(doc))
        path, value = r.choice(every), r.choice(VALUES)
        mutate(d, path, value)
        js = tmp_path / f"m{i}.json"
        js.write_text(json.dumps(d, indent=1))
        cases.append((path, value, js))
    said = libgsync_results(gsync_run, [js for _, _, js in cases], tmp_path)
    differ = []
    for (path, value, js), c in zip(cases, said):
        py = gsync_result(js, device)
        if c != py:
            differ.append(f"{path}={value!r}: libgsync {c!r}, gsync {py!r}")
    assert not differ, f"{len(differ)} of {MUTATIONS}:\n" + "\n".join(differ)
