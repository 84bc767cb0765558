#pragma once

#include <nlohmann/json.hpp>

namespace inflight::protocol {

// An SQS action's output members in AWS JSON shape: an object whose keys are kept sorted. The
// JSON codec prints it as it is; the Query codec walks it into XML (§2.4). nlohmann::json (Debian's
// nlohmann-json3-dev, which the engine already uses) holds the engine's UTF-8 std::strings as they
// are, so an answer is built and printed without converting text to UTF-16 and back.
using Output = nlohmann::json;

} // namespace inflight::protocol
