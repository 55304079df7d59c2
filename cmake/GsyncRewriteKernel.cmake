# gsync_rewrite_kernel(): runs gsync-rewrite as a build step.
#
#   gsync_rewrite_kernel(<output.cl>
#     SOURCE <kernel.cl>
#     [CONSTRAINTS <constraints.json>]
#     [BARRIER <name>] [DISCOVERY <name>] [NO_DISCOVERY]
#     [DEFINES <NAME[=VALUE]>...] [INCLUDE_DIRS <dir>...]
#     [INLINE_INCLUDES]
#     [OPTIONS <gsync-rewrite option>...])
#
# Writes <output.cl> (and the launch constraints) from <kernel.cl>. A
# relative output or constraints path is in CMAKE_CURRENT_BINARY_DIR; a
# relative source or include directory in CMAKE_CURRENT_SOURCE_DIR. The
# command reruns when the kernel, any file it includes (gsync-rewrite
# writes a dependency file with -MD) or gsync-rewrite itself changes. List
# the outputs among a target's sources, or in a custom target's DEPENDS,
# for the build to make them. The directory that holds gsync.h is on the
# include path last, so kernels may include it.
#
# Each output has a command of its own, which runs the whole rewrite (the
# tool writes the same bytes whichever files it is asked for), so that a
# deleted output is made again with every generator: with one command for
# both, the Makefile generators rebuild only the first output and leave a
# deleted second one missing.
#
# Installed with gsync-rewrite's CMake package (find_package(gsync-rewrite))
# and used by its own source tree. Needs CMake 3.20 for DEPFILE with the
# Makefile generators; other generators rerun only when the kernel changes.

# Ninja reads dependency file paths relative to the top build directory:
# let CMake translate them (it does so for the Makefile generators anyway).
# A function keeps the policies in force where it is defined.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

function(gsync_rewrite_kernel output)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INLINE_INCLUDES;NO_DISCOVERY"
    "SOURCE;CONSTRAINTS;BARRIER;DISCOVERY" "DEFINES;INCLUDE_DIRS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "gsync_rewrite_kernel: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCE)
    message(FATAL_ERROR "gsync_rewrite_kernel(${output}): SOURCE is required")
  endif()

  get_filename_component(out "${output}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(src "${arg_SOURCE}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(args)
  if(arg_BARRIER)
    list(APPEND args "--barrier=${arg_BARRIER}")
  endif()
  if(arg_DISCOVERY)
    list(APPEND args "--discovery=${arg_DISCOVERY}")
  endif()
  if(arg_NO_DISCOVERY)
    list(APPEND args --no-discovery)
  endif()
  if(arg_INLINE_INCLUDES)
    list(APPEND args --inline-includes)
  endif()
  foreach(def IN LISTS arg_DEFINES)
    list(APPEND args "-D${def}")
  endforeach()
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args "-I${dir}")
  endforeach()
  if(GSYNC_REWRITE_KERNEL_INCLUDE_DIR)
    list(APPEND args "-I${GSYNC_REWRITE_KERNEL_INCLUDE_DIR}")
  endif()
  list(APPEND args ${arg_OPTIONS})

  get_filename_component(name "${src}" NAME)
  _gsync_rewrite_command("${out}" "${src}" "${name}" ${args} "${src}"
                         -o "${out}")
  if(arg_CONSTRAINTS)
    get_filename_component(json "${arg_CONSTRAINTS}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    # The same rewrite again for the constraints; the output it writes
    # too goes where no one looks.
    get_filename_component(json_name "${json}" NAME)
    set(scratch "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/gsync-rewrite-kernel")
    file(MAKE_DIRECTORY "${scratch}")
    _gsync_rewrite_command("${json}" "${src}" "${name} (constraints)" ${args}
      "${src}" -o "${scratch}/${json_name}.cl" --constraints "${json}")
  endif()
endfunction()

# The command that writes file (one output of gsync_rewrite_kernel()) by
# running gsync-rewrite with the arguments that follow; it reruns when src,
# a file src includes, or the tool changes.
function(_gsync_rewrite_command file src comment)
  set(args ${ARGN})
  set(depfile)
  if(CMAKE_GENERATOR MATCHES "Make|Ninja")
    set(depfile DEPFILE "${file}.d")
    list(APPEND args -MD -MF "${file}.d" -MT "${file}")
  endif()
  add_custom_command(OUTPUT "${file}"
    COMMAND gsync::gsync-rewrite ${args}
    DEPENDS "${src}" gsync::gsync-rewrite
    ${depfile}
    COMMENT "gsync-rewrite ${comment}"
    VERBATIM)
endfunction()
