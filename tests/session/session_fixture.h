#pragma once

// What the session tests share: the lessons' scenario files, a session on a frozen clock that
// records its events, and events as lines for comparing whole runs.

#include "session/session.h"
#include "sim/scenario.h"

#include "support/source_dir.h"

#include <QCoreApplication>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace inflight::session::test {

using engine::Event;
using engine::Millis;

inline constexpr Millis kStart = 1'700'000'000'000;

inline std::filesystem::path scenarioFolder()
{
    return inflight::test::sourceDir() / "resources/scenarios";
}

inline std::string fileText(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A scenario of resources/scenarios by its file name; an empty one (and a failed check) if it
// does not parse.
inline sim::Scenario lessonScenario(const std::string& fileName)
{
    auto parsed = sim::parseScenario(fileText(scenarioFolder() / fileName));
    if (!parsed) {
        qWarning("%s: %s", fileName.c_str(), parsed.error().message.c_str());
        return {};
    }
    return std::move(*parsed);
}

inline sim::Scenario scenarioOf(const std::string& json)
{
    auto parsed = sim::parseScenario(json);
    if (!parsed) {
        qWarning("%s", parsed.error().message.c_str());
        return {};
    }
    return std::move(*parsed);
}

// An event as one line, for comparing whole runs.
inline std::string line(const Event& e)
{
    return std::string(engine::eventKindName(e.kind)) + " " + std::to_string(e.time) + " " + e.queue
        + " " + e.messageId + " " + e.receipt + " " + std::to_string(e.receiveCount) + " "
        + std::to_string(e.deadline) + " " + std::to_string(e.count) + " " + e.detail + " "
        + e.origin;
}

// Everything a session emits (eventsReady), as lines.
class Recorder {
public:
    explicit Recorder(Session& session) : m_session(session)
    {
        QObject::connect(&session, &Session::eventsReady, &session,
                         [this](const std::vector<Event>& events) {
                             for (const Event& e : events) {
                                 lines.push_back(line(e));
                                 this->events.push_back(e);
                             }
                         });
    }
    // Every event emitted so far.
    const std::vector<std::string>& all()
    {
        m_session.flushNow();
        return lines;
    }
    std::vector<Millis> timesOf(engine::EventKind kind)
    {
        m_session.flushNow();
        std::vector<Millis> result;
        for (const Event& e : events)
            if (e.kind == kind)
                result.push_back(e.time);
        return result;
    }

    std::vector<std::string> lines;
    std::vector<Event> events;

private:
    Session& m_session;
};

inline sim::ActorFigures figuresOf(Session& session, const std::string& name)
{
    const auto id = session.simulation()->findActor(name);
    return id ? session.simulation()->actor(*id)->figures : sim::ActorFigures{};
}

} // namespace inflight::session::test
