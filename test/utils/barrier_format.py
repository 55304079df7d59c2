"""test/utils/barrier_format.py: the lit test format of this suite (see
test/lit.cfg.py). In a module of its own because lit sends the format to
its worker processes, which find a class by its module's name."""
import subprocess

import lit.formats
import lit.Test
import lit.TestRunner


class BarrierTest(lit.Test.Test):
    """One barrier of a scenario test that runs %barrier-runs: the test
    "run/helper.test/flip" is run/helper.test's CASE lines with flip."""

    def __init__(self, suite, path_in_suite, config, source, barrier):
        super().__init__(suite, path_in_suite, config)
        self.source, self.barrier = source, barrier

    def getSourcePath(self):
        return self.source


class ShTestPerBarrier(lit.formats.ShTest):
    """lit's ShTest, except that a test running %barrier-runs becomes one
    test per barrier that --list-barriers shows, so that each has its own
    time limit and the barriers run in parallel as separate files did.
    Named on the command line, such a file runs every barrier in one test.

    With few set (the sanitizer build), only the barriers named there: the
    host code (the tool, gsync-run, libgsync) runs the same for every
    barrier, and what differs between barriers, the kernel, the sanitizers
    do not see; the plain build runs them all."""

    def __init__(self, tool, barrier_runs, few=()):
        super().__init__(execute_external=False)
        self.tool, self.barrier_runs = tool, barrier_runs
        self.few = few
        self.names = None

    def barriers(self):
        if self.names is None:
            self.names = self.list_barriers()
        return self.names

    def list_barriers(self):
        try:
            out = subprocess.run([self.tool, "--list-barriers"],
                                 stdout=subprocess.PIPE, text=True).stdout
        except OSError:
            return []
        names = []
        for line in out.split("discovery")[0].splitlines()[1:]:
            if line.startswith("  "):
                names.append(line.split()[0])
        if self.few:
            names = [n for n in names if n in self.few]
        return names

    def getTestsInDirectory(self, suite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsInDirectory(suite, path_in_suite,
                                                litConfig, localConfig):
            src = test.getSourcePath()
            with open(src, encoding="utf-8", errors="replace") as f:
                matrix = "%barrier-runs" in f.read()
            if not matrix:
                yield test
                continue
            # With no tool to ask, one test that fails in the driver.
            for b in self.barriers() or [""]:
                yield BarrierTest(suite, test.path_in_suite + (b,),
                                  localConfig, src, b)

    def execute(self, test, litConfig):
        only = getattr(test, "barrier", "")
        subs = [("%barrier-runs", self.barrier_runs + (" --only " + only
                                                  if only else ""))]
        return lit.TestRunner.executeShTest(test, litConfig,
                                            self.execute_external, subs)
