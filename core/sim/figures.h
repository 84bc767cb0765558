#pragma once

#include "sim/actor.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace inflight::sim {

// An actor's figures by name, as the control API (GET /_inflight/v1/actors), lesson checks
// (lesson.h) and the window show them: the names of ActorFigures' members ("sent",
// "processedMoreThanOnce", "latencyMax", …). Every name applies to every actor; those of the other
// kind stay 0.

// Every figure name, in the order of ActorFigures.
std::span<const std::string_view> figureNames();

// The figure of that name; nullopt for a name that is not one.
std::optional<std::int64_t> figure(const ActorFigures& figures, std::string_view name);

} // namespace inflight::sim
