#pragma once

// Internal to inflight_control_config: where things are in a configuration file's JSON text.
// nlohmann's parser checks the syntax and builds the document but keeps no positions, so a second,
// positions-only scan of the text it accepted finds where every value and member name starts.

#include "config/queue_config_file.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::config {

// Field paths as configuration errors show them: members by name, elements by index,
// "queues[1].attributes.VisibilityTimeout". A name that is not all [A-Za-z0-9_-] is written as a
// JSON string in brackets (`tags["cost center"]`), so that every path names one field.
std::string memberPath(std::string_view parent, std::string_view name);
std::string elementPath(std::string_view parent, std::size_t index);

// InvalidParameterValue "line L, column C, at PATH: what" (the top level's empty path reads
// "the top level"); the error's parameter is the path.
engine::Error configError(const ConfigPosition& at, std::string_view what);
// The same with what the engine refused, described as describe() does ("Code: message").
engine::Error configError(const ConfigPosition& at, const engine::Error& refused);

// Where an engine error about a queue of the file points: the attribute (OCI: option) its
// parameter names (its name for InvalidAttributeName, else its value), the tags, the queue's name,
// else the queue's entry.
ConfigPosition positionOfQueueError(const ConfigQueue& queue, const engine::Error& error);
// Where an engine error about a message points: the field its parameter stands for (the message's
// object, with that field's path, when the file does not give the field), else the message.
ConfigPosition positionOfMessageError(const ConfigMessage& message, const engine::Error& error);

// One value of the text, in document order (a container before its members).
struct JsonNode {
    static constexpr std::uint32_t kNoKey = UINT32_MAX;
    std::uint32_t value = 0;    // byte offset of its first character
    std::uint32_t stop = 0;     // byte offset one past its last character
    std::uint32_t key = kNoKey; // byte offset of its member name's opening quote, if a member
    std::uint32_t end = 0;      // index one past the last node of its subtree
};

struct JsonSpot {
    std::size_t offset = 0;
    std::string path{};
};

struct JsonScan {
    std::vector<JsonNode> nodes{}; // nodes[0] is the top-level value
    // The first member name repeated in its object (nlohmann keeps the last one silently).
    std::optional<JsonSpot> duplicate{};
    // The first object or list opening at depth maxDepth + 1 (the scan stops there).
    std::optional<JsonSpot> tooDeep{};
    // The path of what was being read at `stopAt` (for nlohmann's syntax errors): the value that
    // holds that offset, the member whose value is missing there, or the enclosing container.
    std::string pathAtStop{};
};

// Scans `text` up to byte `stopAt`. Requires the text before `stopAt` to be JSON that nlohmann
// accepted as far as it goes; on anything else it still ends (iterative, linear in the text, stack
// bounded by maxDepth) with positions that may be wrong, never out of range. A UTF-8 byte-order
// mark is skipped, as nlohmann does.
JsonScan scanJson(std::string_view text, std::size_t maxDepth,
                  std::size_t stopAt = std::string_view::npos);

// The member name whose opening quote is at `keyOffset`, decoded (escapes as nlohmann reads them).
std::string memberNameAt(std::string_view text, std::size_t keyOffset);

// JSON text without the spaces between its tokens (member order and number spellings as written).
std::string withoutSpaces(std::string_view json);

// Line and column (1-based; columns count characters, not bytes) of byte offsets of one text, each
// in O(log lines) plus a scan of at most two 64-byte blocks, in whatever order they are asked.
class LineIndex {
public:
    explicit LineIndex(std::string_view text);

    std::pair<int, int> at(std::size_t offset) const; // offsets past the end count as the end

private:
    // Characters (UTF-8 lead bytes) in text[0, offset).
    std::size_t charactersBefore(std::size_t offset) const;

    static constexpr std::size_t kBlock = 64;
    std::string_view m_text;
    std::vector<std::size_t> m_lineStarts;
    std::vector<std::uint32_t> m_blockCharacters; // charactersBefore(i * kBlock)
};

} // namespace inflight::config
