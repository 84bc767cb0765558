#pragma once

#include "engine/snapshot.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::store {

// Compact encodings of the nested parts of engine records for the workspace's columns. Binary
// blobs (length-prefixed, little-endian) where there are many rows and speed matters; JSON where
// a person may want to read the file with `sqlite3`. Decoders return nullopt for bytes they did
// not write (a damaged file).

std::string encodeAttributes(const engine::MessageAttributes& attributes);
std::optional<engine::MessageAttributes> decodeAttributes(std::string_view bytes);

std::string encodeAttemptItems(const std::vector<engine::ReceiveAttemptRecord::Item>& items);
std::optional<std::vector<engine::ReceiveAttemptRecord::Item>> decodeAttemptItems(
    std::string_view bytes);

std::string stringMapToJson(const engine::StringMap& map);
std::optional<engine::StringMap> stringMapFromJson(std::string_view json);

std::string deletedAtToJson(const std::map<std::string, engine::Millis>& deletedAt);
std::optional<std::map<std::string, engine::Millis>> deletedAtFromJson(std::string_view json);

std::string moveTasksToJson(const std::vector<engine::MoveTaskRecord>& tasks);
std::optional<std::vector<engine::MoveTaskRecord>> moveTasksFromJson(std::string_view json);

} // namespace inflight::store
