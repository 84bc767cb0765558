#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace inflight::test {

// The repository's folder, which ctest gives every test in INFLIGHT_SOURCE_DIR
// (tests/CMakeLists.txt): files under it are found wherever the build is, and whatever the
// compiler makes of __FILE__ (relative under ccache).
inline std::filesystem::path sourceDir()
{
    const char* dir = std::getenv("INFLIGHT_SOURCE_DIR");
    if (dir == nullptr || *dir == '\0')
        throw std::runtime_error("INFLIGHT_SOURCE_DIR is not set: run the test through ctest, or "
                                 "set it to the repository's folder");
    return dir;
}

} // namespace inflight::test
