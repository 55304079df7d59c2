# See __init__.py: each line plotted and each label, written by savefig.
_lines = []


class _Axes:
    def plot(self, x, y, label="", **kw):
        _lines.append("line %s: %s" % (label, " ".join(
            "%s:%s" % (a, b) for a, b in zip(x, y))))

    def __getattr__(self, name):
        return lambda *a, **kw: _lines.append("%s %s" % (name, " ".join(
            str(v) for v in a)))


class _Figure:
    def tight_layout(self):
        pass

    def savefig(self, path, **kw):
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(_lines) + "\n")


def subplots(**kw):
    return _Figure(), _Axes()
