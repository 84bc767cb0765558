#pragma once

#include <cstdint>
#include <string_view>

namespace inflight::engine {

// The number an OCI Queue client sees as a message's `id` (OCI ids are 64-bit integers): the
// first 15 hexadecimal digits of the engine's message id, dashes skipped, so it is positive,
// stable and the same in every view of the message (the REST answers, the window).
std::int64_t ociMessageNumber(std::string_view messageId);

} // namespace inflight::engine
