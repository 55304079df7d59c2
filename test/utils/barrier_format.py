"""test/utils/barrier_format.py: the lit test format of this suite (see
test/lit.cfg.py). In a module of its own because lit sends the format to
its worker processes, which find a class by its module's name."""
import copy
import subprocess

import lit.BooleanExpression
import lit.formats
import lit.Test
import lit.TestRunner


class BarrierTest(lit.Test.Test):
    """One barrier of a scenario test that runs %barrier-runs: the test
    "run/helper.test/flip" is run/helper.test's CASE lines with flip."""

    runs_opencl = True  # through %barrier-runs

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
    do not see; the plain build runs them all.

    opencl names the substitutions that run OpenCL. A test that uses none
    of them runs with no OpenCL platform to find (OCL_ICD_VENDORS is
    no_vendors, an empty directory): one that reaches OpenCL by some other
    way fails, instead of passing for a test that runs no kernel.

    With sanitizer_follows set (the plain build, when scripts/check.sh runs
    the sanitizer build after it), a test that runs no OpenCL and that the
    sanitizer build runs alike is left to it and not run here: a test stays
    if its REQUIRES or UNSUPPORTED lines keep it from a build with the
    "sanitize" feature. Both builds are optimised alike (-O2), so a test
    left there checks there what it checks here, and the sanitizers
    besides. A test that runs OpenCL stays here as well: PoCL compiles its
    kernels here first, about twice as fast as under the sanitizer's
    allocator, and the sanitizer build's run of the test finds them in
    PoCL's kernel cache."""

    def __init__(self, tool, barrier_runs, opencl, no_vendors, few=(),
                 sanitizer_follows=False):
        super().__init__(execute_external=False)
        self.tool, self.barrier_runs = tool, barrier_runs
        self.opencl, self.no_vendors = opencl, no_vendors
        self.few = few
        self.sanitizer_follows = sanitizer_follows
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

    def runs_opencl(self, test, text=None):
        """Whether test uses a substitution of opencl: found once, when
        discovery reads the file (text), or here for a test lit made
        itself (a file named on the command line)."""
        if not hasattr(test, "runs_opencl"):
            if text is None:
                with open(test.getSourcePath(), encoding="utf-8",
                          errors="replace") as f:
                    text = f.read()
            test.runs_opencl = any(sub in text for sub in self.opencl)
        return test.runs_opencl

    def getTestsInDirectory(self, suite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsInDirectory(suite, path_in_suite,
                                                litConfig, localConfig):
            src = test.getSourcePath()
            with open(src, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if "%barrier-runs" not in text:
                self.runs_opencl(test, text)
                if not self.left_to_sanitizer_build(test, src):
                    yield test
                continue
            # With no tool to ask, one test that fails in the driver.
            for b in self.barriers() or [""]:
                yield BarrierTest(suite, test.path_in_suite + (b,),
                                  localConfig, src, b)

    def left_to_sanitizer_build(self, test, src):
        """Whether the sanitizer build runs this test, which is not a
        barrier's, alike (see sanitizer_follows)."""
        if not self.sanitizer_follows or self.runs_opencl(test):
            return False
        features = set(test.config.available_features) | {"sanitize"}
        triple = getattr(test.config, "target_triple", "") or ""
        lines = lit.TestRunner.parseIntegratedTestScriptCommands(
            src, ["REQUIRES:", "UNSUPPORTED:"])
        for _, keyword, line in lines:
            for expr in line.split(","):
                if not expr.strip():
                    continue
                value = lit.BooleanExpression.BooleanExpression.evaluate(
                    expr.strip(), features, triple)
                if value != (keyword == "REQUIRES:"):
                    return False
        return True

    def execute(self, test, litConfig):
        only = getattr(test, "barrier", "")
        subs = [("%barrier-runs", self.barrier_runs + (" --only " + only
                                                  if only else ""))]
        if not self.runs_opencl(test):
            test.config = copy.copy(test.config)
            test.config.environment = dict(test.config.environment,
                                           OCL_ICD_VENDORS=self.no_vendors)
        return lit.TestRunner.executeShTest(test, litConfig,
                                            self.execute_external, subs)
