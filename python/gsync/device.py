"""The build option that compiles the watch into the barriers
(rewrite-rules/prelude.cl; GSYNC_WATCH_BUILD_OPTION in libgsync.h, a
macro ctypes cannot read). The check of a device, the build options and
everything a launch asks of a device are libgsync's
(Constraints.check_device, Constraints.build_options, gsync.launch)."""

WATCH_MACRO = "gsync_watch"
WATCH_BUILD_OPTION = "-D" + WATCH_MACRO
