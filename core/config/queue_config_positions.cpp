#include "config/queue_config_positions.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace inflight::config {

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool isSimpleName(std::string_view name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_' || c == '-';
    });
}

bool startsCharacter(char c)
{
    // A UTF-8 continuation byte (10xxxxxx) does not start a character.
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpace(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && isSpace(text[pos]))
        ++pos;
    return pos;
}

struct Token {
    std::size_t end = 0;   // one past its last character
    bool complete = false; // a string with its closing quote, a literal followed by a delimiter
};

// The string whose opening quote is at `pos`.
Token stringToken(std::string_view text, std::size_t pos)
{
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return Token{i + 1, true};
    }
    return Token{text.size(), false};
}

// A number or literal (true, false, null) starting at `pos`; at least one character.
Token literalToken(std::string_view text, std::size_t pos)
{
    std::size_t i = pos + 1;
    while (i < text.size() && !isSpace(text[i])
           && std::string_view(",:[]{}\"").find(text[i]) == std::string_view::npos)
        ++i;
    return Token{i, i < text.size()};
}

// The scan's state machine: what may come next.
enum class Expect : std::uint8_t {
    Value,
    FirstElementOrEnd, // after '['
    FirstMemberOrEnd,  // after '{'
    Member,            // after ',' in an object
    Colon,             // after a member name
    CommaOrEnd,        // after a value inside a container
    Nothing,           // the top-level value is complete
};

struct Frame {
    bool object = false;
    std::uint32_t node = 0;
    std::string path{};
    std::size_t count = 0; // elements or members completed so far
    std::unordered_set<std::string> names{};
    std::string name{}; // of the member being read
    std::uint32_t nameOffset = JsonNode::kNoKey;
};

class Scanner {
public:
    Scanner(std::string_view text, std::size_t maxDepth, std::size_t stopAt)
        : m_text(text),
          m_maxDepth(maxDepth),
          m_stop(std::min(stopAt, text.size())),
          m_prefix(stopAt != std::string_view::npos)
    {
    }

    JsonScan run()
    {
        std::size_t pos = m_text.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
        while (m_expect != Expect::Nothing) {
            pos = skipSpace(m_text, pos);
            if (pos >= m_stop) {
                m_out.pathAtStop = currentPath();
                break;
            }
            const std::optional<std::size_t> next = step(pos);
            if (!next)
                break;
            pos = *next;
        }
        return std::move(m_out);
    }

private:
    // Reads the token at `pos`; the offset after it, or nullopt when the scan ends there.
    std::optional<std::size_t> step(std::size_t pos)
    {
        const char c = m_text[pos];
        switch (m_expect) {
        case Expect::FirstElementOrEnd:
            if (c == ']')
                return close(pos);
            return value(pos);
        case Expect::Value: return value(pos);
        case Expect::FirstMemberOrEnd:
            if (c == '}')
                return close(pos);
            return memberName(pos);
        case Expect::Member: return memberName(pos);
        case Expect::Colon:
            if (c != ':')
                return stop();
            m_expect = Expect::Value;
            return pos + 1;
        case Expect::CommaOrEnd:
            if (c == ',') {
                m_expect = m_frames.back().object ? Expect::Member : Expect::Value;
                return pos + 1;
            }
            if (c == (m_frames.back().object ? '}' : ']'))
                return close(pos);
            return stop();
        case Expect::Nothing: break;
        }
        return std::nullopt;
    }

    std::optional<std::size_t> value(std::size_t pos)
    {
        const char c = m_text[pos];
        std::string path = valuePath();
        const std::uint32_t key = m_frames.empty() || !m_frames.back().object
            ? JsonNode::kNoKey
            : m_frames.back().nameOffset;
        const auto index = static_cast<std::uint32_t>(m_out.nodes.size());
        m_out.nodes.push_back(JsonNode{.value = static_cast<std::uint32_t>(pos),
                                       .stop = static_cast<std::uint32_t>(pos + 1),
                                       .key = key,
                                       .end = index + 1});
        if (c == '{' || c == '[') {
            if (m_frames.size() >= m_maxDepth) {
                m_out.pathAtStop = path;
                m_out.tooDeep = JsonSpot{pos, std::move(path)};
                return std::nullopt;
            }
            m_frames.push_back(Frame{.object = c == '{', .node = index, .path = std::move(path)});
            m_expect = c == '{' ? Expect::FirstMemberOrEnd : Expect::FirstElementOrEnd;
            return pos + 1;
        }
        const Token token = c == '"' ? stringToken(m_text, pos) : literalToken(m_text, pos);
        // A token that reaches the stop offset is what the parser complained about ("tru}", an
        // unterminated string), unless it is complete at the end of the text.
        if (m_prefix
            && (token.end > m_stop
                || (token.end == m_stop && (m_stop < m_text.size() || !token.complete)))) {
            m_out.pathAtStop = std::move(path);
            return std::nullopt;
        }
        m_out.nodes[index].stop = static_cast<std::uint32_t>(token.end);
        completed();
        return token.end;
    }

    std::optional<std::size_t> memberName(std::size_t pos)
    {
        if (m_text[pos] != '"')
            return stop();
        Frame& frame = m_frames.back();
        frame.name = memberNameAt(m_text, pos);
        frame.nameOffset = static_cast<std::uint32_t>(pos);
        if (!frame.names.insert(frame.name).second) {
            m_out.duplicate = JsonSpot{pos, memberPath(frame.path, frame.name)};
            m_out.pathAtStop = m_out.duplicate->path;
            return std::nullopt;
        }
        m_expect = Expect::Colon;
        return stringToken(m_text, pos).end;
    }

    std::size_t close(std::size_t pos)
    {
        JsonNode& node = m_out.nodes[m_frames.back().node];
        node.end = static_cast<std::uint32_t>(m_out.nodes.size());
        node.stop = static_cast<std::uint32_t>(pos + 1);
        m_frames.pop_back();
        completed();
        return pos + 1;
    }

    void completed()
    {
        if (m_frames.empty()) {
            m_expect = Expect::Nothing;
            return;
        }
        ++m_frames.back().count;
        m_expect = Expect::CommaOrEnd;
    }

    std::optional<std::size_t> stop()
    {
        m_out.pathAtStop = currentPath();
        return std::nullopt;
    }

    std::string valuePath() const
    {
        if (m_frames.empty())
            return {};
        const Frame& frame = m_frames.back();
        return frame.object ? memberPath(frame.path, frame.name)
                            : elementPath(frame.path, frame.count);
    }

    // A member whose value is due, else the innermost container.
    std::string currentPath() const
    {
        if (m_frames.empty())
            return {};
        const Frame& frame = m_frames.back();
        if (frame.object && (m_expect == Expect::Colon || m_expect == Expect::Value))
            return memberPath(frame.path, frame.name);
        return frame.path;
    }

    std::string_view m_text;
    std::size_t m_maxDepth;
    std::size_t m_stop;
    bool m_prefix; // scanning up to a syntax error, not a whole accepted text
    Expect m_expect = Expect::Value;
    std::vector<Frame> m_frames;
    JsonScan m_out;
};

} // namespace

std::string memberPath(std::string_view parent, std::string_view name)
{
    std::string path(parent);
    if (isSimpleName(name)) {
        if (!path.empty())
            path += '.';
        path += name;
        return path;
    }
    path += '[';
    path += nlohmann::json(std::string(name))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    path += ']';
    return path;
}

std::string elementPath(std::string_view parent, std::size_t index)
{
    std::string path(parent);
    path += '[';
    path += std::to_string(index);
    path += ']';
    return path;
}

engine::Error configError(const ConfigPosition& at, std::string_view what)
{
    std::string message = "line " + std::to_string(at.line) + ", column "
        + std::to_string(at.column) + ", at " + (at.path.empty() ? "the top level" : at.path)
        + ": ";
    message += what;
    return engine::makeError(engine::ErrorCode::InvalidParameterValue, std::move(message), at.path);
}

engine::Error configError(const ConfigPosition& at, const engine::Error& refused)
{
    return configError(at, engine::describe(refused));
}

ConfigPosition positionOfQueueError(const ConfigQueue& queue, const engine::Error& error)
{
    // An attribute the engine does not take there is a problem of its name, not its value.
    const auto& positions = error.code == engine::ErrorCode::InvalidAttributeName
        ? queue.attributeNamePositions
        : queue.attributePositions;
    if (const auto it = positions.find(error.parameter); it != positions.end())
        return it->second;
    if (error.parameter == "Tags")
        return queue.tagsPosition;
    if (error.parameter == "QueueName")
        return queue.namePosition;
    return queue.position;
}

ConfigPosition positionOfMessageError(const ConfigMessage& message, const engine::Error& error)
{
    // The engine's parameter names (SQS and OCI spellings) by the file's field names.
    static const std::vector<std::pair<std::string_view, std::string_view>> kFields = {
        {"MessageBody", "body"},
        {"content", "body"},
        {"DelaySeconds", "delaySeconds"},
        {"delaySeconds", "delaySeconds"},
        {"MessageGroupId", "groupId"},
        {"MessageDeduplicationId", "deduplicationId"},
        {"MessageAttributes", "attributes"},
        {"channelId", "channel"},
    };
    for (const auto& [parameter, field] : kFields) {
        if (error.parameter != parameter)
            continue;
        if (const auto it = message.fields.find(std::string(field)); it != message.fields.end())
            return it->second;
        return ConfigPosition{message.position.line, message.position.column,
                              memberPath(message.position.path, field)};
    }
    return message.position;
}

JsonScan scanJson(std::string_view text, std::size_t maxDepth, std::size_t stopAt)
{
    return Scanner(text, maxDepth, stopAt).run();
}

std::string memberNameAt(std::string_view text, std::size_t keyOffset)
{
    const std::size_t end = stringToken(text, keyOffset).end;
    const std::string_view token = text.substr(keyOffset, end - keyOffset);
    if (token.size() < 2)
        return {};
    if (token.find('\\') == std::string_view::npos)
        return std::string(token.substr(1, token.size() - 2));
    const auto decoded = nlohmann::json::parse(token, nullptr, /*allow_exceptions=*/false);
    return decoded.is_string() ? decoded.get<std::string>()
                               : std::string(token.substr(1, token.size() - 2));
}

std::string withoutSpaces(std::string_view json)
{
    std::string result;
    result.reserve(json.size());
    bool inString = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            result += c;
            if (c == '\\' && i + 1 < json.size())
                result += json[++i];
            else if (c == '"')
                inString = false;
        } else if (!isSpace(c)) {
            result += c;
            inString = c == '"';
        }
    }
    return result;
}

LineIndex::LineIndex(std::string_view text) : m_text(text)
{
    m_lineStarts.push_back(text.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0);
    m_blockCharacters.reserve(text.size() / kBlock + 1);
    std::uint32_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i % kBlock == 0)
            m_blockCharacters.push_back(characters);
        characters += startsCharacter(text[i]) ? 1 : 0;
        if (text[i] == '\n')
            m_lineStarts.push_back(i + 1);
    }
    if (text.size() % kBlock == 0)
        m_blockCharacters.push_back(characters);
}

std::size_t LineIndex::charactersBefore(std::size_t offset) const
{
    // Every block start up to the text's end has its count (the constructor's invariant).
    const std::size_t block = std::min(offset / kBlock, m_blockCharacters.size() - 1);
    std::size_t characters = m_blockCharacters[block];
    for (std::size_t i = block * kBlock; i < offset; ++i)
        characters += startsCharacter(m_text[i]) ? 1 : 0;
    return characters;
}

std::pair<int, int> LineIndex::at(std::size_t offset) const
{
    offset = std::min(offset, m_text.size());
    const auto after = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const std::size_t line = after == m_lineStarts.begin()
        ? 0
        : static_cast<std::size_t>(after - m_lineStarts.begin()) - 1;
    const std::size_t start = std::min(m_lineStarts[line], offset);
    const std::size_t column = charactersBefore(offset) - charactersBefore(start) + 1;
    return {static_cast<int>(line) + 1, static_cast<int>(column)};
}

} // namespace inflight::config
