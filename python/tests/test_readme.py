"""The README's Python quick start runs as written, on the README's own
kernel (its first ```c block), with the buffers it leaves to the reader
made here."""
import os
import re

import numpy as np
import pyopencl as cl

from conftest import SRC


def test_readme_quick_start(tmp_path, monkeypatch, context, capsys):
    with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    kernel = re.search(r"```c\n(kernel void smooth.*?)```", readme, re.S).group(1)
    quick = re.search(r"### From Python\n.*?```python\n(.*?)```", readme,
                      re.S).group(1)
    (tmp_path / "kernel.cl").write_text(kernel)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cl, "create_some_context", lambda: context)
    n, steps = 1000, 10
    u = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                  hostbuf=np.ones(n, np.float32))
    tmp = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    exec(compile(quick, "README.md", "exec"),
         {"u": u, "tmp": tmp, "n": n, "steps": steps})
    assert re.fullmatch(r"[1-9][0-9]*\n", capsys.readouterr().out)
