#include "sim/figures.h"

#include <array>

namespace inflight::sim {

namespace {

using Member = std::int64_t ActorFigures::*;

struct Named {
    std::string_view name;
    Member member;
};

constexpr std::array kFigures{
    Named{"sent", &ActorFigures::sent},
    Named{"deduplicated", &ActorFigures::deduplicated},
    Named{"retries", &ActorFigures::retries},
    Named{"sendErrors", &ActorFigures::sendErrors},
    Named{"receives", &ActorFigures::receives},
    Named{"emptyReceives", &ActorFigures::emptyReceives},
    Named{"receiveErrors", &ActorFigures::receiveErrors},
    Named{"lostAnswers", &ActorFigures::lostAnswers},
    Named{"received", &ActorFigures::received},
    Named{"processed", &ActorFigures::processed},
    Named{"processedMoreThanOnce", &ActorFigures::processedMoreThanOnce},
    Named{"failed", &ActorFigures::failed},
    Named{"poisoned", &ActorFigures::poisoned},
    Named{"crashed", &ActorFigures::crashed},
    Named{"released", &ActorFigures::released},
    Named{"heartbeats", &ActorFigures::heartbeats},
    Named{"deleteErrors", &ActorFigures::deleteErrors},
    Named{"visibilityErrors", &ActorFigures::visibilityErrors},
    Named{"busyWorkers", &ActorFigures::busyWorkers},
    Named{"latencyCount", &ActorFigures::latencyCount},
    Named{"latencyTotal", &ActorFigures::latencyTotal},
    Named{"latencyMax", &ActorFigures::latencyMax},
};

constexpr auto kNames = [] {
    std::array<std::string_view, kFigures.size()> names{};
    for (std::size_t i = 0; i < kFigures.size(); ++i)
        names[i] = kFigures[i].name;
    return names;
}();

} // namespace

std::span<const std::string_view> figureNames()
{
    return kNames;
}

std::optional<std::int64_t> figure(const ActorFigures& figures, std::string_view name)
{
    for (const Named& named : kFigures)
        if (named.name == name)
            return figures.*named.member;
    return std::nullopt;
}

} // namespace inflight::sim
