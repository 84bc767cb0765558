// The session's simulation, scenarios and lessons (session.h, "simulation" and "lessons"): the
// timer side is in session.cpp (runDue, stepTo).
#include "session/session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace inflight::session {

namespace {

// The actors' figures are signalled at most this often (real ms).
constexpr qint64 kActorsSignalInterval = 100;

const engine::Origin kScenarioOrigin = "scenario";
const engine::Origin kLessonOrigin = "lesson";

engine::Error noSimulation()
{
    return engine::makeError(engine::ErrorCode::ResourceNotFound,
                             "There is no simulation: load a scenario or add an actor first.",
                             "id");
}

// "arn:aws:sqs:us-east-1:000000000000:orders" → "orders" where that is one of the broker's
// queues; anything else as it is.
QString queueNameOf(engine::Broker& broker, const QString& arn)
{
    const QString name = arn.section(QLatin1Char(':'), -1);
    if (!name.isEmpty() && QString::fromStdString(broker.arnForName(name.toStdString())) == arn)
        return name;
    return arn;
}

// RedrivePolicy and RedriveAllowPolicy with queue names where the broker's ARNs are, as a scenario
// file writes them.
std::string withQueueNames(engine::Broker& broker, const std::string& name,
                           const std::string& value)
{
    QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(value));
    if (!document.isObject())
        return value;
    QJsonObject policy = document.object();
    if (name == "RedrivePolicy" && policy.contains(QStringLiteral("deadLetterTargetArn")))
        policy[QStringLiteral("deadLetterTargetArn")]
            = queueNameOf(broker, policy[QStringLiteral("deadLetterTargetArn")].toString());
    if (name == "RedriveAllowPolicy" && policy[QStringLiteral("sourceQueueArns")].isArray()) {
        QJsonArray sources;
        for (const QJsonValue& source : policy[QStringLiteral("sourceQueueArns")].toArray())
            sources.append(queueNameOf(broker, source.toString()));
        policy[QStringLiteral("sourceQueueArns")] = sources;
    }
    return QJsonDocument(policy).toJson(QJsonDocument::Compact).toStdString();
}

// The attributes a new queue of each kind has, to leave out of a written scenario what is
// a default anyway.
struct Defaults {
    engine::StringMap standard, fifo, oci;
};

Defaults defaultAttributes(const engine::BrokerOptions& options)
{
    engine::ManualClock clock;
    engine::Broker scratch(clock, options);
    Defaults defaults;
    const auto attributesOf = [&](engine::CreateQueueRequest request) {
        const std::string name = request.name;
        if (!scratch.createQueue(request))
            return engine::StringMap{};
        auto record = scratch.queueRecord(name);
        return record ? record->attributes : engine::StringMap{};
    };
    defaults.standard = attributesOf({.name = "standard"});
    defaults.fifo = attributesOf({.name = "fifo.fifo", .attributes = {{"FifoQueue", "true"}}});
    defaults.oci = attributesOf({.name = "oci", .oci = true});
    return defaults;
}

} // namespace

sim::Simulation& Session::ensureSimulation(std::uint64_t seed)
{
    if (!m_sim) {
        m_sim = std::make_unique<sim::Simulation>(*m_broker, seed);
        Q_EMIT simulationChanged();
    }
    return *m_sim;
}

void Session::resetEverything(const engine::Origin& origin)
{
    const bool hadLesson = m_lesson != nullptr;
    const bool hadSimulation = m_sim != nullptr;
    m_lesson.reset();
    m_sim.reset(); // the actors stop first: their long polls are cancelled in the broker
    m_scenario.reset();
    m_broker->reset(origin);
    if (hadSimulation)
        Q_EMIT simulationChanged();
    if (hadLesson)
        QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
    advanceNow();
}

engine::Result<sim::ScenarioApplied> Session::loadScenario(const sim::Scenario& scenario,
                                                           ScenarioLoad how)
{
    // Replacing: the scenario goes into a new simulation, which takes the old one's place only
    // once everything is applied (a refusal leaves the old one running as it was).
    std::unique_ptr<sim::Simulation> fresh;
    sim::Simulation* target = m_sim.get();
    if (how.mode == ScenarioMode::Replace || !m_sim) {
        fresh = std::make_unique<sim::Simulation>(*m_broker, scenario.seed);
        target = fresh.get();
    }
    auto applied = sim::applyScenario(*target, scenario, kScenarioOrigin);
    if (!applied)
        return applied.error();
    const sim::Scenario kept = scenario; // `scenario` may be m_scenario itself
    const bool replaced = fresh != nullptr;
    if (fresh) {
        m_lesson.reset();
        m_sim = std::move(fresh); // the old actors stop: what they held comes back in time
    }
    m_scenario = kept;
    if (how.lesson && m_scenario->lesson) {
        m_lesson = std::make_unique<sim::LessonRun>(*m_scenario->lesson, kLessonOrigin);
        QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
    }
    if (replaced)
        Q_EMIT simulationChanged();
    if (how.clock)
        applyScenarioClock(m_scenario->clock);
    noteActorsChanged();
    advanceNow(); // actions due now (a first send at the start) run at once, even paused
    return applied;
}

void Session::applyScenarioClock(const sim::ScenarioClock& clock)
{
    if (clock.speed > 0 && clock.speed != m_clock->speed())
        m_clock->setSpeed(clock.speed);
    if (clock.start && *clock.start > m_clock->now() && m_sim) {
        // Engine time skips forward to the start: the actors wait (paused) while it does, so that
        // their first actions come after the start as if they were added there.
        std::vector<sim::ActorId> waiting;
        for (const sim::ActorInfo& actor : m_sim->actors())
            if (actor.state == sim::ActorState::Running) {
                (void)m_sim->pauseActor(actor.id);
                waiting.push_back(actor.id);
            }
        stepTo(*clock.start);
        for (const sim::ActorId id : waiting)
            (void)m_sim->resumeActor(id);
    }
    m_pauseForLesson = false;
    if (clock.paused) {
        m_runUntil.reset();
        m_clock->pause();
    } else {
        m_clock->resume();
    }
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

sim::Scenario Session::currentScenario()
{
    sim::Scenario scenario;
    if (m_scenario) {
        scenario.title = m_scenario->title;
        scenario.notes = m_scenario->notes;
        scenario.lesson = m_scenario->lesson;
    }
    scenario.seed = m_sim ? m_sim->seed() : (m_scenario ? m_scenario->seed : 0);
    scenario.clock.speed = m_clock->speed();
    scenario.clock.paused = m_clock->paused();
    scenario.clock.start
        = m_scenario && m_scenario->clock.start ? m_scenario->clock.start : m_clock->now();
    const engine::BrokerOptions& options = m_broker->options();
    if (options.inFlightLimitStandard != engine::BrokerOptions{}.inFlightLimitStandard)
        scenario.inFlightLimit = options.inFlightLimitStandard;

    const Defaults defaults = defaultAttributes(options);
    for (const engine::QueueRecord& record : m_broker->queueRecords()) {
        if (record.isBuiltInDeadLetter)
            continue;
        config::ConfigQueue queue;
        queue.name = record.name;
        queue.kind = record.oci              ? engine::QueueKind::Oci
            : record.name.ends_with(".fifo") ? engine::QueueKind::Fifo
                                             : engine::QueueKind::Standard;
        const engine::StringMap& base = queue.kind == engine::QueueKind::Oci ? defaults.oci
            : queue.kind == engine::QueueKind::Fifo                          ? defaults.fifo
                                                                             : defaults.standard;
        for (const auto& [name, value] : record.attributes) {
            if (name == "FifoQueue")
                continue;
            const auto it = base.find(name);
            if (it != base.end() && it->second == value)
                continue;
            queue.attributes[name] = withQueueNames(*m_broker, name, value);
        }
        if (queue.kind == engine::QueueKind::Fifo)
            queue.attributes["FifoQueue"] = "true";
        queue.tags = record.tags;
        scenario.queues.queues.push_back(std::move(queue));
    }
    appendActors(scenario);
    // Through the file and back: the queues' creation order and every position as a file has them.
    auto parsed = sim::parseScenario(sim::writeScenario(scenario));
    return parsed ? std::move(*parsed) : scenario;
}

void Session::appendActors(sim::Scenario& scenario) const
{
    if (!m_sim)
        return;
    for (const sim::ActorInfo& actor : m_sim->actors()) {
        sim::ScenarioActor entry;
        entry.spec = actor.spec;
        const bool active
            = actor.state == sim::ActorState::Running || actor.state == sim::ActorState::Paused;
        std::visit([&](auto& spec) { spec.autoStart = active; }, entry.spec);
        scenario.actors.push_back(std::move(entry));
    }
}

std::string Session::simulationFile() const
{
    if (!m_sim || m_sim->size() == 0)
        return {};
    sim::Scenario scenario;
    if (m_scenario) {
        scenario.title = m_scenario->title;
        scenario.notes = m_scenario->notes;
    }
    scenario.seed = m_sim->seed();
    appendActors(scenario);
    return sim::writeScenario(scenario);
}

engine::Status Session::restoreSimulation(std::string_view file)
{
    auto parsed = sim::parseScenario(file);
    if (!parsed)
        return parsed.error();
    auto loaded = loadScenario(*parsed, ScenarioLoad{.clock = false, .lesson = false});
    if (!loaded)
        return loaded.error();
    return engine::Done{};
}

engine::Result<sim::ActorId> Session::addActor(const sim::ActorSpec& spec)
{
    auto added = ensureSimulation().addActor(spec);
    if (added) {
        noteActorsChanged();
        advanceNow();
    }
    return added;
}

engine::Status Session::editActor(sim::ActorId id, const sim::ActorSpec& spec)
{
    if (!m_sim)
        return noSimulation();
    engine::Status edited = m_sim->editActor(id, spec);
    if (edited) {
        noteActorsChanged();
        advanceNow();
    }
    return edited;
}

engine::Status Session::actorCall(sim::ActorId id,
                                  engine::Status (sim::Simulation::*call)(sim::ActorId))
{
    if (!m_sim)
        return noSimulation();
    engine::Status done = (m_sim.get()->*call)(id);
    if (done) {
        noteActorsChanged();
        advanceNow();
    }
    return done;
}

engine::Status Session::removeActor(sim::ActorId id)
{
    return actorCall(id, &sim::Simulation::removeActor);
}

engine::Status Session::startActor(sim::ActorId id)
{
    return actorCall(id, &sim::Simulation::startActor);
}

engine::Status Session::stopActor(sim::ActorId id)
{
    return actorCall(id, &sim::Simulation::stopActor);
}

engine::Status Session::pauseActor(sim::ActorId id)
{
    return actorCall(id, &sim::Simulation::pauseActor);
}

engine::Status Session::resumeActor(sim::ActorId id)
{
    return actorCall(id, &sim::Simulation::resumeActor);
}

void Session::noteActorsChanged()
{
    m_actorsDirty = true;
    if (m_actorsTimer.isActive())
        return;
    const qint64 since
        = m_actorsSignalled.isValid() ? m_actorsSignalled.elapsed() : kActorsSignalInterval;
    m_actorsTimer.start(static_cast<int>(std::max<qint64>(kActorsSignalInterval - since, 0)));
}

void Session::emitActorsChanged()
{
    if (!m_actorsDirty)
        return;
    m_actorsDirty = false;
    m_actorsSignalled.start();
    Q_EMIT actorsChanged();
}

// ---- lessons -------------------------------------------------------------------------------------

void Session::evaluateLesson(std::optional<engine::Millis> at)
{
    if (!m_lesson || !m_sim || m_lesson->finished())
        return;
    bool ticked = false;
    while (const auto index = m_lesson->evaluate(*m_broker, *m_sim, at)) {
        ticked = true;
        if (m_lesson->plan().steps[*index].pauseWhenMet) {
            // Stopped at this moment; signalled (clockChanged) once what runs now is done.
            m_runUntil.reset();
            m_clock->pause();
            m_pauseForLesson = true;
            break; // the reader sees this moment before the next step is looked at
        }
    }
    if (ticked)
        QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
}

void Session::startLesson(sim::LessonPlan plan)
{
    ensureSimulation();
    m_lesson = std::make_unique<sim::LessonRun>(std::move(plan), kLessonOrigin);
    QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
    evaluateLesson();
}

void Session::endLesson()
{
    m_lesson.reset();
    QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
}

engine::Result<sim::LessonEffects> Session::lessonDoIt()
{
    if (!m_lesson || !m_sim)
        return engine::makeError(engine::ErrorCode::InvalidParameterValue,
                                 "No lesson is being played.", "lesson");
    auto effects = m_lesson->perform(*m_broker, *m_sim);
    if (!effects)
        return effects.error();
    QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
    noteActorsChanged();
    if (effects->speed)
        setSpeed(*effects->speed);
    if (effects->pauseClock)
        pause();
    if (effects->resumeClock)
        resume();
    if (effects->runFor)
        runFor(*effects->runFor);
    advanceNow();
    return effects;
}

void Session::lessonNext()
{
    if (!m_lesson)
        return;
    m_lesson->next(m_clock->now());
    QMetaObject::invokeMethod(this, &Session::lessonChanged, Qt::QueuedConnection);
    evaluateLesson();
}

engine::Status Session::restartLesson()
{
    if (!m_scenario || !m_scenario->lesson)
        return engine::makeError(engine::ErrorCode::InvalidParameterValue,
                                 "No lesson was loaded from a scenario, so there is none to "
                                 "restart.",
                                 "lesson");
    const sim::Scenario scenario = *m_scenario;
    m_lesson.reset();
    m_broker->reset(kLessonOrigin);
    auto applied = loadScenario(
        scenario, ScenarioLoad{.mode = ScenarioMode::Replace, .clock = false, .lesson = true});
    if (!applied)
        return applied.error();
    sim::ScenarioClock clock = scenario.clock;
    clock.start.reset(); // engine time never goes back
    applyScenarioClock(clock);
    advanceNow();
    return engine::Done{};
}

sim::CheckProgress Session::lessonProgress()
{
    if (!m_lesson || !m_sim)
        return {};
    return m_lesson->progress(*m_broker, *m_sim);
}

} // namespace inflight::session
