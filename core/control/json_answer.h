#pragma once

#include "protocol/http_types.h"

#include <nlohmann/json_fwd.hpp>

namespace inflight::control {

// An answer of the control API: `body` as compact JSON (bytes that are not UTF-8 replaced), with
// `status` (200 unless given) and Content-Type application/json.
protocol::HttpResponse jsonAnswer(const nlohmann::json& body, int status = 200);
// The same for a document that keeps its keys in the order they were added (a simulation file,
// a lesson), so an answer reads in the order the file does.
protocol::HttpResponse orderedJsonAnswer(const nlohmann::ordered_json& body, int status = 200);

} // namespace inflight::control
