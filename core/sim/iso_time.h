#pragma once

#include "engine/clock.h"

#include <optional>
#include <string>
#include <string_view>

namespace inflight::sim {

// "2024-05-01T09:00:00.000Z": engine time (epoch milliseconds) in ISO 8601, UTC, to the
// millisecond. Requires t >= 0.
std::string formatIsoTime(engine::Millis t);

// Reads "YYYY-MM-DDTHH:MM:SS", optionally with a fraction of a second (up to milliseconds are
// kept), followed by "Z" or an offset "+HH:MM" / "-HH:MM". Years 1970..9999; nullopt otherwise.
std::optional<engine::Millis> parseIsoTime(std::string_view text);

} // namespace inflight::sim
