// Reading a scenario file (scenario.h): nlohmann checks the syntax and builds the document, the
// configuration file's positions-only scan (control/queue_config_positions.h) says where each
// value is, the "queues" go to config::parseQueueConfig at their own lines and columns, and a
// walk in document order reads the rest.
#include "sim/scenario.h"

#include "sim/iso_time.h"
#include "sim/scenario_reader.h"

#include <charconv>

namespace inflight::sim {

namespace {

using namespace scenario_json;

// nlohmann's SAX events, only to stop at depth kMaxConfigDepth + 1 before any document is built
// and to keep the parser's syntax error.
class SyntaxCheck {
public:
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(Json::number_integer_t) { return true; }
    bool number_unsigned(Json::number_unsigned_t) { return true; }
    bool number_float(Json::number_float_t, const std::string&) { return true; }
    bool string(std::string&) { return true; }
    bool binary(Json::binary_t&) { return true; }
    bool key(std::string&) { return true; }
    bool start_object(std::size_t) { return ++m_depth <= config::kMaxConfigDepth; }
    bool end_object() { return --m_depth, true; }
    bool start_array(std::size_t) { return ++m_depth <= config::kMaxConfigDepth; }
    bool end_array() { return --m_depth, true; }
    bool parse_error(std::size_t byte, const std::string&, const Json::exception& error)
    {
        m_errorByte = byte;
        m_error = error.what();
        return false;
    }

    bool tooDeep() const { return m_depth > config::kMaxConfigDepth; }
    const std::optional<std::string>& error() const { return m_error; }
    std::size_t errorByte() const { return m_errorByte; }

private:
    std::size_t m_depth = 0;
    std::optional<std::string> m_error;
    std::size_t m_errorByte = 0;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing
// value - invalid literal; last read: 'tru,'" without the parts the position replaces.
std::string syntaxMessage(const std::string& what)
{
    const std::size_t column = what.find("column ");
    const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    return "malformed JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
}

// ---- the rest of the file ----------------------------------------------------------------------

Result<std::uint64_t> seedOf(const Reader& r, const Field& f)
{
    if (f.json->is_number_unsigned())
        return f.json->get<std::uint64_t>();
    if (f.json->is_string()) {
        const std::string& text = f.json->get_ref<const std::string&>();
        std::uint64_t seed = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size())
            return seed;
    }
    return r.error(f,
                   "a seed is a whole number from 0 to 18446744073709551615, or a string of "
                   "its digits");
}

Status readClock(const Reader& r, const Field& object, ScenarioClock& clock)
{
    return eachMember(r, object, "an object with speed, start and paused",
                      [&](const std::string& name, const Field& f) -> Status {
                          if (name == "speed") {
                              auto speed = numberOf(r, f);
                              if (!speed)
                                  return speed.error();
                              if (!(*speed > 0.0) || *speed > 100'000.0)
                                  return r.error(f, "the speed is above 0 and at most 100000");
                              clock.speed = *speed;
                              return Done{};
                          }
                          if (name == "start") {
                              auto text = stringOf(r, f);
                              if (!text)
                                  return text.error();
                              const auto start = parseIsoTime(*text);
                              if (!start)
                                  return r.error(f,
                                                 "an ISO 8601 time such as "
                                                 "\"2024-05-01T09:00:00Z\"");
                              clock.start = *start;
                              return Done{};
                          }
                          if (name == "paused") {
                              auto paused = booleanOf(r, f);
                              if (!paused)
                                  return paused.error();
                              clock.paused = *paused;
                              return Done{};
                          }
                          return unknownKey(r, f, name, "the clock has speed, start and paused");
                      });
}

Status readEngine(const Reader& r, const Field& object, Scenario& scenario)
{
    return eachMember(r, object, "an object with inFlightLimit",
                      [&](const std::string& name, const Field& f) -> Status {
                          if (name != "inFlightLimit")
                              return unknownKey(r, f, name, "the engine has inFlightLimit");
                          auto limit = integerOf(r, f);
                          if (!limit)
                              return limit.error();
                          if (*limit < 1 || *limit > 120'000)
                              return r.error(f, "the in-flight limit is from 1 to 120000");
                          scenario.inFlightLimit = *limit;
                          return Done{};
                      });
}

Result<std::string> notesOf(const Reader& r, const Field& f)
{
    if (f.json->is_string())
        return f.json->get<std::string>();
    if (!f.json->is_array())
        return r.wrongType(f, "a string or a list of lines");
    std::string notes;
    for (const Field& line : r.elements(f)) {
        auto text = stringOf(r, line);
        if (!text)
            return text.error();
        if (!notes.empty())
            notes += '\n';
        notes += *text;
    }
    return notes;
}

// The "queues" value at its own line and column inside {"queues": …}, for parseQueueConfig: the
// text before it becomes as many line breaks and spaces, so every position it reports is the
// scenario's.
std::string queuesDocument(const Reader& r, const Field& queues)
{
    const JsonNode& n = r.node(queues);
    const ConfigPosition at = r.at(queues);
    std::string text = "{\"queues\":";
    std::size_t column = text.size() + 1; // of the next character
    if (at.line > 1) {
        text.append(static_cast<std::size_t>(at.line - 1), '\n');
        column = 1;
    }
    // On line 1 the value follows at least {"queues": (column 11).
    if (static_cast<std::size_t>(at.column) > column)
        text.append(static_cast<std::size_t>(at.column) - column, ' ');
    text.append(r.text().substr(n.value, n.stop - n.value));
    text += '}';
    return text;
}

Status checkUniqueActors(const Scenario& scenario)
{
    std::map<std::string, const ScenarioActor*> seen;
    for (const ScenarioActor& actor : scenario.actors) {
        const auto [it, added] = seen.emplace(actorName(actor.spec), &actor);
        if (!added) {
            const ConfigPosition& first = it->second->fields.at("name");
            return config::configError(actor.fields.at("name"),
                                       "an actor named " + it->first
                                           + " is declared twice (first at line "
                                           + std::to_string(first.line) + ", column "
                                           + std::to_string(first.column) + ")");
        }
    }
    return Done{};
}

Result<Scenario> readScenario(const Reader& r)
{
    const Field root = r.root();
    if (!root.json->is_object())
        return r.wrongType(root, "an object with \"version\"");
    Scenario scenario;
    bool versioned = false;
    std::optional<Field> lesson; // read last: its steps name the actors and queues
    Status read = eachMember(r, root, "", [&](const std::string& name, const Field& f) -> Status {
        if (name == "version") {
            if (!f.json->is_number_integer() || *f.json != kScenarioVersion)
                return r.error(f, "this Inflight reads scenarios of version 1 only");
            versioned = true;
            return Done{};
        }
        if (name == "title")
            return take(stringOf(r, f), scenario.title);
        if (name == "notes")
            return take(notesOf(r, f), scenario.notes);
        if (name == "seed")
            return take(seedOf(r, f), scenario.seed);
        if (name == "clock")
            return readClock(r, f, scenario.clock);
        if (name == "engine")
            return readEngine(r, f, scenario);
        if (name == "queues") {
            auto queues = config::parseQueueConfig(queuesDocument(r, f));
            if (!queues)
                return queues.error();
            scenario.queues = std::move(*queues);
            return Done{};
        }
        if (name == "actors") {
            if (!f.json->is_array())
                return r.wrongType(f, "a list of actors");
            for (const Field& entry : r.elements(f)) {
                ScenarioActor actor;
                if (Status one = readActor(r, entry, actor); !one)
                    return one;
                scenario.actors.push_back(std::move(actor));
            }
            return Done{};
        }
        if (name == "lesson") {
            lesson = f;
            return Done{};
        }
        return unknownKey(r, f, name,
                          "a scenario has version, title, notes, seed, clock, engine, queues, "
                          "actors and lesson");
    });
    if (!read)
        return read.error();
    if (!versioned)
        return r.missing(root, "version", "missing: the scenario's version (1)");
    if (Status unique = checkUniqueActors(scenario); !unique)
        return unique.error();
    if (lesson) {
        LessonPlan plan;
        if (Status read = readLesson(r, *lesson, scenario, plan); !read)
            return read.error();
        scenario.lesson = std::move(plan);
    }
    return scenario;
}

} // namespace

engine::Result<Scenario> parseScenario(std::string_view json)
{
    const auto textPosition = [&](std::size_t offset, std::string path) {
        const auto [line, column] = config::LineIndex(json).at(offset);
        return ConfigPosition{line, column, std::move(path)};
    };
    if (json.size() > config::kMaxConfigBytes)
        return config::configError(ConfigPosition{},
                                   "the file has " + std::to_string(json.size())
                                       + " bytes; at most 16 MiB are read");
    SyntaxCheck syntax;
    Json::sax_parse(json.begin(), json.end(), &syntax);
    if (syntax.tooDeep()) {
        const auto scan = config::scanJson(json, config::kMaxConfigDepth);
        return config::configError(
            textPosition(scan.tooDeep ? scan.tooDeep->offset : 0, scan.pathAtStop),
            "nested deeper than " + std::to_string(config::kMaxConfigDepth) + " levels");
    }
    if (syntax.error()) {
        // nlohmann counts the bytes read, the failing one included.
        const std::size_t offset
            = std::min(json.size(), syntax.errorByte() - (syntax.errorByte() > 0));
        const auto scan = config::scanJson(json, config::kMaxConfigDepth, offset);
        return config::configError(textPosition(offset, scan.pathAtStop),
                                   syntaxMessage(*syntax.error()));
    }
    const Json root = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
    const auto scan = config::scanJson(json, config::kMaxConfigDepth);
    if (scan.duplicate)
        return config::configError(textPosition(scan.duplicate->offset, scan.duplicate->path),
                                   "this name is given twice in one object");
    if (root.is_discarded() || scan.nodes.empty())
        return config::configError(ConfigPosition{}, "malformed JSON");
    return readScenario(Reader(json, scan.nodes, root));
}

engine::BrokerOptions scenarioBrokerOptions(const Scenario& scenario, engine::BrokerOptions base)
{
    base.seed = scenario.seed;
    if (scenario.inFlightLimit)
        base.inFlightLimitStandard = base.inFlightLimitFifo = *scenario.inFlightLimit;
    return base;
}

} // namespace inflight::sim
