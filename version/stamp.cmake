# Writes the generated version.cpp (cmake -P, at every build): the commit is
# asked of git each time, so a build after a new commit names it, and the
# file is rewritten only when its text changes, so a build with nothing new
# recompiles nothing. Inputs: SOURCE_DIR, OUT, VERSION, BUILD_TYPE; OUT_ML
# (optional): the same for checker-verified, version/version.ml.in.
set(QCERT_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  # A tarball unpacked inside some other clone must not name that clone's commit.
  if(NOT failed)
    get_filename_component(top "${top}" REALPATH)
    get_filename_component(source "${SOURCE_DIR}" REALPATH)
  endif()
  if(NOT failed AND top STREQUAL source)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE commit RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT failed AND commit)
      set(QCERT_COMMIT ${commit})
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE failed ERROR_QUIET)
      if(failed OR changes)
        string(APPEND QCERT_COMMIT "-dirty")
      endif()
    endif()
  endif()
endif()
set(QCERT_VERSION ${VERSION})
set(QCERT_BUILD_TYPE ${BUILD_TYPE})
if(NOT QCERT_BUILD_TYPE)
  set(QCERT_BUILD_TYPE "no build type")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.cpp.in ${OUT} @ONLY)
# checker-verified's version module (OCaml), when it is built.
if(OUT_ML)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/version.ml.in ${OUT_ML} @ONLY)
endif()
