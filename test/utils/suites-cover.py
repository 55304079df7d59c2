"""test/utils/suites-cover.py: checks that the two suites of scripts/check.sh
ran every test between them.

    suites-cover.py ALL.txt PLAIN.json SANITIZED.json

ALL.txt is `lit --show-tests` of the plain build without
sanitizer-build-follows (every test of the suite); PLAIN.json and
SANITIZED.json are lit's -o results of the plain build's run with it and
of the sanitizer build's run. The plain build leaves to the sanitizer
build the tests it expects that build to run alike (test/lit.cfg.py,
test/utils/barrier_format.py); a test it left there must have run there,
not been found unsupported or been missing. A test the plain build ran
counts whatever its result (unsupported there, it is unsupported in a
whole run too). Prints each test that neither ran and exits 1 if there is
one; otherwise prints how the tests were shared out."""
import json
import sys


def names_in_results(path):
    with open(path, encoding="utf-8") as f:
        tests = json.load(f)["tests"]
    return {t["name"]: t["code"] for t in tests}


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        every = [line.strip() for line in f if " :: " in line]
    plain = names_in_results(argv[2])
    sanitized = names_in_results(argv[3])
    missing = []
    for name in every:
        if name in plain:
            continue
        code = sanitized.get(name)
        if code is None or code == "UNSUPPORTED":
            missing.append((name, code or "not found"))
    for name, why in missing:
        print("suites-cover: %s: left to the sanitizer build, which did not "
              "run it (%s)" % (name, why))
    if missing:
        return 1
    print("suites-cover: %d tests: %d in the plain build, %d left to the "
          "sanitizer build and run there" %
          (len(every), len(plain), len(every) - len(plain)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
