// Linked into every engine and sim test executable (tests/CMakeLists.txt): every broker checks
// the queue invariants of core/engine/queue.h after each call, and a broken one fails the running
// test. INFLIGHT_INVARIANTS=0 turns it off: the sanitizer suite (scripts/sanitize.sh) runs the
// same tests for memory errors, where the check would only triple their time at -O0.
#include "engine/invariants.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace {

const bool installed = [] {
    if (const char* off = std::getenv("INFLIGHT_INVARIANTS"); off && std::string_view(off) == "0")
        return false;
    inflight::engine::setInvariantHook([](std::string_view violation) {
        ADD_FAILURE() << "engine invariant broken: " << std::string(violation);
    });
    return true;
}();

} // namespace
