// The one translation unit that provides Catch2's main() for every test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
