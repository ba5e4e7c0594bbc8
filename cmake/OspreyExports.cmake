# OspreyExports.cmake — every static library exports only its prefix (mon_ for libmon,
# osprey_ above it), as DPDK's and Hyperscan's do: an application links our archives beside its
# own code, and internals named list_init or http_parse would clash with its names.
#
# osprey_export_only(<target> PREFIX <prefix>... [INTERNAL])
#   After <target>'s archive is built, its objects are linked once with `ld -r` into one
#   object in which objcopy makes every defined global that does not start with a prefix
#   local (and, for libmon, every hidden one): the archive is that one object, so calls
#   between the library's files still bind, by address, but the internals' names are gone.
#   INTERNAL: also <target>_internal, the same objects with every name global and the same
#   usage requirements, for white-box unit tests, benchmarks and fuzz targets that call a
#   library's internals. Never for applications.
#   ctest <target>_exports_prefixed runs cmake/check_exports.sh (nm) on the archive.
# Needs GNU-compatible `ld -r` and objcopy (binutils or LLVM's). With OSPREY_LTO the objects
# also carry GCC's IR, which `ld -r` carries along untouched: the osprey program's LTO link
# reads it, every other link the machine code whose names are made local here; the export
# check (check_exports.sh) reads the machine code's names, not the IR's.
if(NOT CMAKE_LINKER OR NOT CMAKE_OBJCOPY)
  message(FATAL_ERROR "the libraries need a linker that does 'ld -r' and objcopy (binutils or LLVM)")
endif()
set(OSPREY_CHECK_EXPORTS ${CMAKE_CURRENT_LIST_DIR}/check_exports.sh)

function(osprey_export_only target)
  cmake_parse_arguments(ARG "INTERNAL" "" "PREFIX" ${ARGN})
  if(NOT ARG_PREFIX)
    message(FATAL_ERROR "osprey_export_only(${target}): PREFIX is required")
  endif()
  set(keep)
  foreach(p ${ARG_PREFIX})
    list(APPEND keep --keep-global-symbol=${p}*)
  endforeach()
  set(merged ${CMAKE_CURRENT_BINARY_DIR}/${target}_merged.o)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_LINKER} -r -o ${merged} --whole-archive $<TARGET_FILE:${target}>
    COMMAND ${CMAKE_OBJCOPY} --localize-hidden --wildcard ${keep} ${merged}
    # (GCC's LTO labels of each file's early debug information, `rule.c.1a2b3c4d`: the debug
    # information of the osprey program's LTO link refers to them by name; no C name has a dot)
    COMMAND ${CMAKE_OBJCOPY} --wildcard --globalize-symbol=*.c.* ${merged}
    COMMAND ${CMAKE_COMMAND} -E rm -f $<TARGET_FILE:${target}>
    COMMAND ${CMAKE_AR} qc $<TARGET_FILE:${target}> ${merged}
    COMMAND ${CMAKE_RANLIB} $<TARGET_FILE:${target}>
    COMMENT "${target}: internal names made local, only ${ARG_PREFIX} exported"
    VERBATIM)
  if(ARG_INTERNAL)
    add_library(${target}_internal STATIC $<TARGET_OBJECTS:${target}>)
    target_include_directories(${target}_internal
      PUBLIC $<TARGET_PROPERTY:${target},INTERFACE_INCLUDE_DIRECTORIES>)
    target_link_libraries(${target}_internal PUBLIC $<TARGET_PROPERTY:${target},LINK_LIBRARIES>)
  endif()
  add_test(NAME ${target}_exports_prefixed
           COMMAND sh ${OSPREY_CHECK_EXPORTS} ${CMAKE_NM} $<TARGET_FILE:${target}> ${ARG_PREFIX})
endfunction()
