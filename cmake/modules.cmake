# st_precompile(TARGET [extra headers...]): with ST_PCH, the target's sources
# are compiled over a precompiled header of the standard and third-party
# headers most of them include (nlohmann/json.hpp alone is ~3 s of a ~9 s
# compile). Every CI build tree is a cold build on 2 cores, so this is CI
# minutes. The trees without it (tsan, fuzz, lint) keep checking that each
# file includes what it uses.
function(st_precompile target)
  if(NOT ST_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <algorithm> <chrono> <cstdint> <functional> <map> <memory> <optional> <string>
    <string_view> <unordered_map> <utility> <vector> <nlohmann/json.hpp> ${ARGN})
  # The json header must be found through the target's own link interface.
  target_link_libraries(${target} PRIVATE nlohmann_json::nlohmann_json)
endfunction()

# st_module(NAME SOURCES a.cc b.cc [DEPS public deps...] [PRIVATE_DEPS deps...])
# Declares the static library st_<NAME> for src/<NAME>. Include paths start at
# src/, so headers are included as "<module>/<file>.h".
function(st_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(st_${name} STATIC ${ARG_SOURCES})
  target_include_directories(st_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(st_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  st_precompile(st_${name})
endfunction()

# st_unit_test(MODULE SOURCES x_test.cc ... [DEPS extra...])
# One gtest binary per module: st_<MODULE>_test, registered with ctest.
function(st_unit_test module)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(st_${module}_test ${ARG_SOURCES})
  target_link_libraries(st_${module}_test PRIVATE st_${module} ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(st_${module}_test PRIVATE ST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${module} COMMAND st_${module}_test)
  st_precompile(st_${module}_test <gtest/gtest.h>)
endfunction()
