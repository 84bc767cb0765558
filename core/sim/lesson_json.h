#pragma once

// Internal to inflight_sim: a lesson's JSON for writeScenario (lesson_write.cpp).

#include "sim/lesson_step.h"

#include <nlohmann/json.hpp>

namespace inflight::sim::lesson_json {

// The "lesson" member as parseScenario reads it back (lesson.h).
nlohmann::ordered_json lessonJson(const LessonPlan& plan);

} // namespace inflight::sim::lesson_json
