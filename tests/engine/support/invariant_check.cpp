// Linked into every engine test executable (tests/CMakeLists.txt): every broker checks the queue
// invariants of core/engine/queue.h after each call, and a broken one fails the running test.
#include "engine/invariants.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const bool installed = [] {
    inflight::engine::setInvariantHook([](std::string_view violation) {
        ADD_FAILURE() << "engine invariant broken: " << std::string(violation);
    });
    return true;
}();

} // namespace
