# doctest from the system (Debian/Ubuntu: doctest-dev) when installed, else a pinned release fetched by CMake.
find_package(doctest 2.4 CONFIG QUIET)
if(doctest_FOUND)
  message(STATUS "TileLab: doctest ${doctest_VERSION} from ${doctest_DIR}")
else()
  message(STATUS "TileLab: doctest not installed (apt-get install doctest-dev); fetching release 2.4.11")
  include(FetchContent)
  FetchContent_Declare(doctest
    URL https://github.com/doctest/doctest/archive/refs/tags/v2.4.11.tar.gz
    URL_HASH SHA256=632ed2c05a7f53fa961381497bf8069093f0d6628c5f26286161fbd32a560186
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  set(DOCTEST_NO_INSTALL ON CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(doctest)
endif()
