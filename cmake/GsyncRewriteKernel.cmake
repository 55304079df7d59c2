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
# Every run of the tool writes both outputs, so that they always come from
# one run, and a build runs it once; a deleted output is made again with
# every generator (test/downstream deletes each in turn).
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
  set(run gsync::gsync-rewrite ${args} "${src}" -o "${out}")
  if(arg_CONSTRAINTS)
    get_filename_component(json "${arg_CONSTRAINTS}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND run --constraints "${json}")
  endif()
  set(depfile)
  set(deps)
  if(CMAKE_GENERATOR MATCHES "Make|Ninja")
    set(depfile DEPFILE "${out}.d")
    set(deps -MD -MF "${out}.d" -MT "${out}")
  endif()

  # One command writes the kernel, and the constraints with it. Ninja
  # reruns a command when any of its outputs is missing, so there both are
  # its outputs. The other generators make a command's second output again
  # only when its first is out of date too (the Makefile generators' check
  # for a missing one takes effect a build later): there the constraints
  # have a command of their own, which runs after the kernel's and runs
  # the same rewrite again only when they are missing. Each run writes
  # the pair, and one build runs the tool once.
  set(outputs "${out}")
  if(arg_CONSTRAINTS AND CMAKE_GENERATOR MATCHES "Ninja")
    list(APPEND outputs "${json}")
    list(APPEND deps -MT "${json}")
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${run} ${deps}
    DEPENDS "${src}" gsync::gsync-rewrite
    ${depfile}
    COMMENT "gsync-rewrite ${name}"
    VERBATIM)
  if(arg_CONSTRAINTS AND NOT CMAKE_GENERATOR MATCHES "Ninja")
    get_filename_component(json_name "${json}" NAME)
    set(script
      "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/gsync-rewrite-kernel/${json_name}.cmake")
    set(quoted)
    foreach(a IN LISTS run)
      if(a STREQUAL "gsync::gsync-rewrite")
        set(a "$<TARGET_FILE:gsync::gsync-rewrite>")
      endif()
      string(APPEND quoted " [==[${a}]==]")
    endforeach()
    file(GENERATE OUTPUT "${script}" CONTENT
"# Written by gsync_rewrite_kernel(): makes ${json_name} again when it is
# missing, with the rewrite that writes its kernel too.
if(NOT EXISTS [==[${json}]==])
  message(STATUS [==[gsync-rewrite ${name} (${json_name} was missing)]==])
  execute_process(COMMAND${quoted} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR \"gsync-rewrite failed (exit status \${rc})\")
  endif()
endif()
")
    add_custom_command(OUTPUT "${json}"
      COMMAND "${CMAKE_COMMAND}" -P "${script}"
      DEPENDS "${out}" "${script}"
      VERBATIM)
  endif()
endfunction()
