# st_module(NAME SOURCES a.cc b.cc [DEPS public deps...] [PRIVATE_DEPS deps...])
# Declares the static library st_<NAME> for src/<NAME>. Include paths start at
# src/, so headers are included as "<module>/<file>.h".
function(st_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(st_${name} STATIC ${ARG_SOURCES})
  target_include_directories(st_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(st_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# st_unit_test(MODULE SOURCES x_test.cc ... [DEPS extra...])
# One gtest binary per module: st_<MODULE>_test, registered with ctest.
function(st_unit_test module)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(st_${module}_test ${ARG_SOURCES})
  target_link_libraries(st_${module}_test PRIVATE st_${module} ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(st_${module}_test PRIVATE ST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${module} COMMAND st_${module}_test)
endfunction()
