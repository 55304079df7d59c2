# Installation (cmake --install build --prefix P): the tool, libgsync with
# its header (static, and shared for the gsync Python package, which
# python/CMakeLists.txt installs), libgsync.pc for pkg-config, gsync.h for
# kernels, the rule files and docs for reference, the man page, and the
# CMake package (gsync-rewriteConfig.cmake: targets gsync::runtime and
# gsync::gsync-rewrite, and gsync_rewrite_kernel()). The build tree is a
# CMake package too: point CMAKE_PREFIX_PATH or gsync-rewrite_DIR at it.
include(CMakePackageConfigHelpers)

set(GSYNC_DATADIR ${CMAKE_INSTALL_DATADIR}/gsync-rewrite)
set(GSYNC_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gsync-rewrite)

# Without GSYNC_RUNTIME: the tool, gsync.h, the rules, the docs and a
# CMake package of the tool alone (no libgsync, no libgsync.pc).
set(GSYNC_INSTALL_TARGETS gsync-rewrite)
if(GSYNC_RUNTIME)
  list(APPEND GSYNC_INSTALL_TARGETS gsync)
endif()
install(TARGETS ${GSYNC_INSTALL_TARGETS} EXPORT gsync-rewrite-targets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The shared libgsync, for the Python package: its versioned names only
# (runtime/CMakeLists.txt says why), and in no CMake package.
# gsync-check (docs/check.md), beside the gsync-rewrite it runs; in no
# CMake package.
if(TARGET gsync-check)
  install(TARGETS gsync-check RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET gsync-shared)
  install(TARGETS gsync-shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          NAMELINK_SKIP)
endif()
install(FILES include/gsync.h DESTINATION ${GSYNC_DATADIR}/include)
install(DIRECTORY rewrite-rules/ DESTINATION ${GSYNC_DATADIR}/rewrite-rules
  FILES_MATCHING PATTERN "*.cl")
file(GLOB GSYNC_DOCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${GSYNC_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES docs/gsync-rewrite.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

if(GSYNC_RUNTIME)
# libgsync.pc, with the prefix known only at install time (--prefix):
# configured here but for that, and again when installed.
set(GSYNC_PC_PREFIX "@GSYNC_PC_PREFIX@")
foreach(dir LIBDIR INCLUDEDIR BINDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(GSYNC_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(GSYNC_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
# json-c is needed to link a static libgsync, only by libgsync itself when
# it is shared; a sanitizer build needs its runtime wherever it is linked.
get_target_property(GSYNC_TYPE gsync TYPE)
if(GSYNC_TYPE STREQUAL "STATIC_LIBRARY")
  set(GSYNC_PC_REQUIRES "json-c")
  set(GSYNC_PC_REQUIRES_PRIVATE "")
else()
  set(GSYNC_PC_REQUIRES "")
  set(GSYNC_PC_REQUIRES_PRIVATE "json-c")
endif()
string(REPLACE ";" " " GSYNC_PC_LIBS "${GSYNC_SANITIZE_FLAGS}")
# A static libgsync brings its lock calls (pthreads) to the program too.
if(GSYNC_TYPE STREQUAL "STATIC_LIBRARY")
  string(APPEND GSYNC_PC_LIBS " -pthread")
endif()
configure_file(cmake/libgsync.pc.in ${CMAKE_BINARY_DIR}/libgsync.pc.in @ONLY)
# Written straight to its destination: two installs of one build tree into
# different prefixes must not share a file in it.
install(CODE "
  set(GSYNC_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(pc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/libgsync.pc\")
  message(STATUS \"Installing: \${pc}\")
  configure_file(${CMAKE_BINARY_DIR}/libgsync.pc.in \${pc} @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \${pc})")
endif()

# The CMake package, installed ...
set(GSYNC_KERNEL_INCLUDE_DIR ${GSYNC_DATADIR}/include)
set(GSYNC_RULES_DIR ${GSYNC_DATADIR}/rewrite-rules)
set(GSYNC_CMAKE_MODULE ${GSYNC_CMAKEDIR}/GsyncRewriteKernel.cmake)
configure_package_config_file(cmake/gsync-rewriteConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install/gsync-rewriteConfig.cmake
  INSTALL_DESTINATION ${GSYNC_CMAKEDIR}
  PATH_VARS GSYNC_KERNEL_INCLUDE_DIR GSYNC_RULES_DIR GSYNC_CMAKE_MODULE)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/gsync-rewriteConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/gsync-rewriteConfig.cmake
  ${CMAKE_BINARY_DIR}/gsync-rewriteConfigVersion.cmake
  cmake/GsyncRewriteKernel.cmake
  DESTINATION ${GSYNC_CMAKEDIR})
install(EXPORT gsync-rewrite-targets NAMESPACE gsync::
  FILE gsync-rewriteTargets.cmake DESTINATION ${GSYNC_CMAKEDIR})

# ... and in the build tree, with paths into the source tree.
set(GSYNC_KERNEL_INCLUDE_DIR ${CMAKE_SOURCE_DIR}/include)
set(GSYNC_RULES_DIR ${CMAKE_SOURCE_DIR}/rewrite-rules)
set(GSYNC_CMAKE_MODULE ${CMAKE_SOURCE_DIR}/cmake/GsyncRewriteKernel.cmake)
configure_package_config_file(cmake/gsync-rewriteConfig.cmake.in
  ${CMAKE_BINARY_DIR}/gsync-rewriteConfig.cmake
  INSTALL_DESTINATION ${CMAKE_BINARY_DIR} INSTALL_PREFIX ${CMAKE_BINARY_DIR}
  PATH_VARS GSYNC_KERNEL_INCLUDE_DIR GSYNC_RULES_DIR GSYNC_CMAKE_MODULE)
export(EXPORT gsync-rewrite-targets NAMESPACE gsync::
  FILE ${CMAKE_BINARY_DIR}/gsync-rewriteTargets.cmake)
