#pragma once

#include <functional>
#include <string_view>

namespace inflight::engine {

// A debug check for the engine's tests: with a hook set, every broker, after each outermost call
// (every public Broker call that changes or settles state), checks the invariants of each queue
// it holds (queue.h) and calls `hook` with a sentence for each one broken. It costs a pass over
// every stored message per call, so it is for tests only (a queue of more than 1,024 message
// slots is checked after every 256th call); no hook (the default): no check.
// Process-wide, for every broker; set it before making brokers (tests/engine/support).
using InvariantHook = std::function<void(std::string_view violation)>;
void setInvariantHook(InvariantHook hook);

} // namespace inflight::engine
