# A stand-in for matplotlib where Debian's is not installed
# (test/check/plot.test): it records what gsync-check's plot script
# draws and writes that as text where the PNG would go.
def use(backend):
    pass
