#pragma once

// Internal to inflight_sim: how the scenario and lesson writers spell numbers, so that a file
// written back reads as a person would have typed it ("5", not "5.0" or "5000 ms").
#include "engine/clock.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace inflight::sim::json_numbers {

// Engine milliseconds as seconds: a whole number when they are whole seconds.
inline nlohmann::ordered_json seconds(engine::Millis ms)
{
    if (ms % 1000 == 0)
        return ms / 1000;
    return static_cast<double>(ms) / 1000.0;
}

// An integer when the value is one (and fits), else the double.
inline nlohmann::ordered_json number(double value)
{
    if (std::abs(value) < 1e15 && value == std::floor(value))
        return static_cast<std::int64_t>(value);
    return value;
}

} // namespace inflight::sim::json_numbers
