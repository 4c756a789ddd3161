# Every dependency comes from Debian bookworm packages (see README.md).
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(Boost 1.81 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)

find_path(RAPIDJSON_INCLUDE_DIR rapidjson/document.h REQUIRED)
add_library(rapidjson INTERFACE)
target_include_directories(rapidjson INTERFACE ${RAPIDJSON_INCLUDE_DIR})
# std::string support in RapidJSON's API.
target_compile_definitions(rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)

# Debian ships no CMake package for CAF 0.17.6.
find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
find_library(CAF_CORE_LIBRARY caf_core REQUIRED)
add_library(caf::core UNKNOWN IMPORTED)
set_target_properties(caf::core PROPERTIES
  IMPORTED_LOCATION "${CAF_CORE_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES Threads::Threads)

if(TROUPE_BUILD_TESTS)
  find_package(Catch2 REQUIRED)
endif()

# troupe_folder_library(NAME <lib> LINKS <deps...>): one static library made of
# every .cpp under the calling folder. A folder with no sources yet becomes an
# INTERFACE library so the tree still configures while it is being built up.
function(troupe_folder_library)
  cmake_parse_arguments(ARG "" "NAME" "LINKS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(sources)
    add_library(${ARG_NAME} STATIC ${sources})
    target_link_libraries(${ARG_NAME} PUBLIC ${ARG_LINKS})
  else()
    add_library(${ARG_NAME} INTERFACE)
    target_link_libraries(${ARG_NAME} INTERFACE ${ARG_LINKS})
  endif()
endfunction()
