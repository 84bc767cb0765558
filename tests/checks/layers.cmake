cmake_minimum_required(VERSION 3.25)
# The layers of the house (docs/ARCHITECTURE.md): every library is a folder (core/<name>, ui, app)
# and a target (inflight_<name>), and a source may include only the headers of the folders whose
# targets its own target links, directly or not. So no include runs from a lower library to a
# higher one, and the links themselves run one way (no two targets link each other). The engine's
# internals (core/engine/internal/) are included only by the engine and by the engine's own tests.
#
#   -DSOURCE_DIR=<repository> -DLAYERS=<folder>=<folder>,<folder>,...;...
#   (each folder with the folders its target's link closure holds, itself among them)
foreach(layer ${LAYERS})
  string(REPLACE "=" ";" parts "${layer}")
  list(GET parts 0 folder)
  list(GET parts 1 allowed)
  string(REPLACE "," ";" allowed "${allowed}")
  set(allowed_${folder} ${allowed})
  list(APPEND folders ${folder})
endforeach()
if(NOT folders)
  message(FATAL_ERROR "no layers given")
endif()

# The links run one way.
foreach(a ${folders})
  foreach(b ${allowed_${a}})
    if(NOT a STREQUAL b AND DEFINED allowed_${b} AND a IN_LIST allowed_${b})
      message(FATAL_ERROR "inflight_${a} and inflight_${b} link each other")
    endif()
  endforeach()
endforeach()

function(folder_of path out)
  if(path MATCHES "^core/([^/]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(path MATCHES "^(ui|app)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

set(checked 0)
set(problems "")
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp"
     "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
     "${SOURCE_DIR}/tests/*.h" "${SOURCE_DIR}/tests/*.cpp")
foreach(source ${sources})
  folder_of("${source}" own)
  file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_]+/")
  foreach(line ${includes})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" header "${line}")
    string(REGEX REPLACE "/.*" "" target_folder "${header}")
    if(NOT DEFINED allowed_${target_folder})
      continue() # not one of the libraries (a test's own support header, a generated file)
    endif()
    if(header MATCHES "^engine/internal/" AND NOT own STREQUAL "engine"
       AND NOT source MATCHES "^tests/engine/")
      string(APPEND problems "\n  ${source} includes the engine's internals: ${header}")
    endif()
    if(own AND NOT target_folder IN_LIST allowed_${own})
      string(APPEND problems
             "\n  ${source} (inflight_${own}) includes ${header}, but inflight_${own} does not link inflight_${target_folder}")
    endif()
  endforeach()
  math(EXPR checked "${checked} + 1")
endforeach()
if(problems)
  message(FATAL_ERROR "includes that cross the layers:${problems}")
endif()
message(STATUS "${checked} sources checked; layers: ${LAYERS}")
