#pragma once

#include "engine/broker.h"
#include "session/pending_receive.h"
#include "sim/lesson.h"
#include "sim/scenario.h"
#include "sim/simulation.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace inflight::session {

// Hosts one engine for the Qt side: owns the Broker and its simulated clock (pause, speed, step),
// arms one timer at the engine's next deadline and advances it then, and fans the engine's events
// out as one batched signal per event-loop turn. Every way in (window, endpoint, simulation) uses
// the same Broker, so everything shows up in the same event stream.
//
// It may also own a simulation (sim::Simulation: producers and consumers on engine time) over its
// broker, and a lesson played over it (sim::LessonRun). The one timer then serves the broker's and
// the actors' deadlines together: it waits for the earlier of Broker::nextDeadline() and
// Simulation::nextDeadline() and runs what is due in time order — the broker advanced to each
// deadline, then the actors due then — so pause, speed and step apply to actors exactly as to
// visibility timeouts, and a step(30 s) performs every actor action of those 30 s at its own
// engine time.
class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(engine::BrokerOptions options = {}, QObject* parent = nullptr);
    // Starts engine time at `start` (epoch ms) instead of the wall clock (tests, restored
    // workspaces); `paused`: frozen exactly there from the first instant (tests, --clock frozen).
    Session(engine::BrokerOptions options, engine::Millis start, QObject* parent = nullptr);
    Session(engine::BrokerOptions options, engine::Millis start, bool paused,
            QObject* parent = nullptr);
    ~Session() override;

    engine::Broker& broker() { return *m_broker; }
    engine::Millis now() const { return m_clock->now(); }
    // Engine time for showing it (countdowns, the clock, charts): now() without fixing it. While
    // the timer is late, deadlines due before it are still served at their own time afterwards
    // (SimulatedClock::holdAt); a look at the clock must not push them later. Engine calls and
    // anything stored read now().
    engine::Millis displayTime() const { return m_clock->peek(); }

    bool isPaused() const { return m_clock->paused(); }
    double speed() const { return m_clock->speed(); }
    void pause();
    void resume();
    // Requires speed > 0.
    void setSpeed(double speed);
    // Moves engine time forward by `delta` ms at once and processes what became due: with a
    // simulation, in time order, the clock stopping at every broker and actor deadline on the way
    // (each actor action at its own engine time).
    void step(engine::Millis delta);

    // ---- time for demos ------------------------------------------------------------------------
    //
    // Speeds have no upper bound here beyond setSpeed's > 0 (the command line and the control API
    // allow up to 100000×): 720× shows a 12-hour visibility timeout in a minute.

    // Runs the clock (resuming it if paused) for `duration` engine ms at the current speed, then
    // pauses it exactly `duration` after now (unless the timer came later than that, e.g. on a
    // loaded machine; then where it came). pause() ends the run early. Requires duration > 0.
    void runFor(engine::Millis duration);
    // The engine time a runFor() pauses at; nullopt when none runs.
    std::optional<engine::Millis> runTarget() const { return m_runUntil; }
    // Steps to the next broker or actor deadline at which something happens (an event, an actor
    // action), passing over broker deadlines that turn out early. Returns the engine time it
    // stopped at; nullopt when nothing is due at all (the clock then stays).
    std::optional<engine::Millis> runToNextEvent();

    // Starts a receive that may wait (long poll); see PendingReceive. The caller owns the result.
    PendingReceive* receive(engine::ReceiveRequest request);

    // What the one timer waits for: the earliest of the broker's and the actors' next deadlines
    // (engine time; kNoDeadline when nothing is due).
    engine::Millis nextDeadline();
    // Whether the timer is armed (the clock runs and something is due).
    bool timerArmed() const { return m_timer.isActive(); }

    // Processes everything due now and re-arms the timer. The timer does this by itself; call it
    // after changing time from outside.
    void advanceNow();
    // advanceNow() if something fell due that the timer has not served yet (the event loop was
    // busy): a reader of the engine calls it first, so that its look at the clock does not push
    // those deadlines later (SimulatedClock::holdAt). Nothing while paused or while serving.
    void serveDue();
    // Delivers (stores, then emits) the events batched so far now instead of at the next turn of
    // the event loop, so a reader of eventsReady — the control API's journal — is up to date with
    // every call already answered. Nothing when nothing is batched.
    void flushNow();
    // Stores now, before returning, everything not stored yet — the events batched so far and a
    // batch whose commit failed — and tells those waiting (whenDurable). True when everything is
    // stored (always without persistence). For a workspace about to close.
    bool commitNow();

    // ---- simulation (issue 13) ------------------------------------------------------------------
    //
    // Change actors through the calls below (they re-arm the timer for the actors' new deadlines
    // and signal actorsChanged). Changing them through simulation() directly is allowed too; then
    // call advanceNow() afterwards.

    // The simulation over this broker; null until ensureSimulation() or loadScenario().
    sim::Simulation* simulation() { return m_sim.get(); }
    const sim::Simulation* simulation() const { return m_sim.get(); }
    // A clean slate (the control API's POST reset): every queue gone (Broker::reset), and the
    // simulation, its scenario and lesson with them; the clock stays as it is.
    void resetEverything(const engine::Origin& origin);
    // The simulation, made (with `seed`) if there is none yet.
    sim::Simulation& ensureSimulation(std::uint64_t seed = 0);

    enum class ScenarioMode : std::uint8_t {
        Replace, // the scenario's actors replace the simulation's (a new simulation)
        Add,     // they join those there (names must be free)
    };
    struct ScenarioLoad {
        ScenarioMode mode = ScenarioMode::Replace;
        // Apply the scenario's clock: its speed, paused or running, and its start when that is
        // not before engine time now (time never goes back; the clock then steps forward to it).
        // The command line's --speed, --clock frozen and --start win over a scenario's: the app
        // applies those itself (false).
        bool clock = true;
        // The scenario's lesson (Scenario::lesson), if it has one, becomes lessonRun().
        bool lesson = true;
    };
    // Applies a parsed scenario (sim::applyScenario): its queues and actors all or nothing — a
    // refusal ("line L, column C, at PATH: …") changes nothing, not even the actors of a replaced
    // simulation. The broker's options (seed, in-flight limit: sim::scenarioBrokerOptions) are
    // fixed when the session is made; a scenario loaded later runs with the session's. The
    // scenario is kept (scenario()) for currentScenario() and restartLesson().
    engine::Result<sim::ScenarioApplied> loadScenario(const sim::Scenario& scenario,
                                                      ScenarioLoad how);
    engine::Result<sim::ScenarioApplied> loadScenario(const sim::Scenario& scenario)
    {
        return loadScenario(scenario, ScenarioLoad{});
    }
    // The scenario last loaded; nullopt if none.
    const std::optional<sim::Scenario>& scenario() const { return m_scenario; }
    // What runs now, as a scenario that parseScenario reads back: the queues the broker has (their
    // attributes that differ from a new queue's, tags and redrive by queue name; no messages), the
    // actors with their current specs (autoStart: whether each is running or paused now), the
    // simulation's seed, the clock's speed and pause, and the loaded scenario's title, notes,
    // start (else engine time now), in-flight limit and lesson. sim::writeScenario() makes it the
    // file ("Save Scenario").
    sim::Scenario currentScenario();
    // The actors that run (their specs, running or stopped as autoStart), with the simulation's
    // seed and the loaded scenario's title and notes, as a scenario file without queues: what a
    // workspace keeps of its simulation. "" without actors.
    std::string simulationFile() const;
    // Brings back the actors of a simulationFile() (their queues must exist): replaces the
    // simulation; the clock and any lesson stay as they are. Refused as loadScenario refuses.
    engine::Status restoreSimulation(std::string_view file);

    // Actor control: the Simulation's calls (simulation.h), then the timer re-armed and
    // actorsChanged signalled. Without a simulation, add makes one; the others are
    // ResourceNotFound.
    engine::Result<sim::ActorId> addActor(const sim::ActorSpec& spec);
    engine::Status editActor(sim::ActorId id, const sim::ActorSpec& spec);
    engine::Status removeActor(sim::ActorId id);
    engine::Status startActor(sim::ActorId id);
    engine::Status stopActor(sim::ActorId id);
    engine::Status pauseActor(sim::ActorId id);
    engine::Status resumeActor(sim::ActorId id);

    // How late actor actions ran against their engine deadlines (the engine time when one ran
    // minus the time it was due). 0 for steps; when the timer comes late, the clock stands at each
    // deadline while it is served (SimulatedClock::holdAt), so only a deadline whose real time
    // passed while something else read the clock (a request, the window) runs late, by that much.
    // The timer's own lateness, in real time, beside it.
    struct ActorLag {
        std::int64_t deadlines = 0;       // actor deadlines served
        std::int64_t over100ms = 0;       // ... of them more than 100 ms late
        engine::Millis total = 0;         // sum of the lateness
        engine::Millis max = 0;           // the latest
        std::int64_t wakeups = 0;         // timer wake-ups
        engine::Millis wakeLateTotal = 0; // real milliseconds they came after they were due
        engine::Millis wakeLateMax = 0;
        double mean() const
        {
            return deadlines == 0 ? 0.0
                                  : static_cast<double>(total) / static_cast<double>(deadlines);
        }
    };
    ActorLag actorLag() const { return m_lag; }
    void resetActorLag() { m_lag = {}; }

    // ---- lessons -------------------------------------------------------------------------------

    // The lesson being played (from loadScenario of a scenario with a lesson, or startLesson);
    // null when none. Its steps are evaluated after every deadline the timer or a step serves and
    // after every batch of events, so a step ticks the moment its check is met; with pauseWhenMet
    // the clock pauses then (a running clock at that moment, a step() at its end).
    const sim::LessonRun* lessonRun() const { return m_lesson.get(); }
    // Plays `plan` over the current simulation (made if none) from its first step.
    void startLesson(sim::LessonPlan plan);
    void endLesson();
    // "Do it": performs the current step's "do" and what it asks of the clock (runFor, pause,
    // resume, speed). The received and peeked messages are in the result for the window to show.
    engine::Result<sim::LessonEffects> lessonDoIt();
    // "Next": ticks the current step whatever its check.
    void lessonNext();
    // Restarts the lesson: every queue gone (Broker::reset), the loaded scenario applied again
    // with its clock's speed and pause (engine time stays where it is: it never goes back), the
    // first step current. Needs a loaded scenario with the lesson (InvalidParameterValue).
    engine::Status restartLesson();
    // The current step's check now (sim::LessonRun::progress).
    sim::CheckProgress lessonProgress();

    // ---- durability ------------------------------------------------------------------------------

    // Makes a batch of events durable (the workspace store): called once per event-loop turn with
    // every event emitted since the last successful call, before eventsReady(), and with an empty
    // batch when only the clock changed (pause, speed, step). Returns Done when stored, else why
    // not (a sentence for the user); a failed batch is passed again, with newer events, on the
    // next turn (or a second later).
    using Stored = engine::Result<engine::Done, std::string>;
    using Persistence = std::function<Stored(std::span<const engine::Event>)>;
    // An empty function turns persistence off: everything is then durable at once.
    void setPersistence(Persistence persist);
    bool hasPersistence() const { return static_cast<bool>(m_persist); }
    // True when every event emitted so far has been stored (always without persistence).
    bool isDurable() const;
    // Calls done(true) once every event emitted up to now is stored — at once if it already is —
    // or done(false) if the commit that should have stored them failed ("acknowledged means
    // durable": the endpoint answers, and the window confirms, only then). Not called once
    // `context` is destroyed.
    void whenDurable(QObject* context, std::function<void(bool stored)> done);
    // Why the last commit failed; empty once a commit succeeds again.
    QString persistenceError() const { return m_persistError; }

Q_SIGNALS:
    // Every engine event since the last emission, in order. Emitted from the event loop.
    void eventsReady(const std::vector<inflight::engine::Event>& events);
    // Paused, speed or a step changed engine time's course.
    void clockChanged();
    // A commit failed (message for the user), or succeeded again after failing.
    void persistenceFailed(const QString& message);
    void persistenceRecovered();
    // The actors' figures or states changed (at most 10 times a real second; the Simulation
    // panel re-reads simulation()->actors()). Also after actors are added, edited or removed.
    void actorsChanged();
    // The simulation was made, replaced (loadScenario) or its actors all changed at once.
    void simulationChanged();
    // The lesson's current step changed (ticked, performed, restarted) or a lesson began or ended.
    void lessonChanged();

private:
    void onEvents(std::vector<engine::Event>& events);
    void flushEvents();
    void rearm();
    void queueFlush();
    void clockMoved();
    // Serves every broker and actor deadline up to `until` (<= now) in time order.
    void runDue(engine::Millis until);
    // Moves the clock to `target` (>= now), stopping at every deadline on the way.
    void stepTo(engine::Millis target);
    void noteActorsChanged();
    void emitActorsChanged();
    // `at`: the engine time of the deadline just served (the clock may be past it).
    void evaluateLesson(std::optional<engine::Millis> at = std::nullopt);
    void applyScenarioClock(const sim::ScenarioClock& clock);
    void appendActors(sim::Scenario& scenario) const;
    engine::Status actorCall(sim::ActorId id,
                             engine::Status (sim::Simulation::*call)(sim::ActorId));

    struct DurableWaiter {
        QPointer<QObject> context;
        std::function<void(bool)> done;
    };

    QElapsedTimer m_real;
    std::unique_ptr<engine::SimulatedClock> m_clock;
    std::unique_ptr<engine::Broker> m_broker;
    QTimer m_timer;
    std::vector<engine::Event> m_pending;
    bool m_flushQueued = false;

    Persistence m_persist;
    std::vector<engine::Event> m_uncommitted; // passed to m_persist, not yet stored
    bool m_clockDirty = false;
    QString m_persistError;
    std::vector<DurableWaiter> m_durableWaiters;
    QTimer m_retry;

    // After m_broker: destroyed first (its consumers cancel their long polls in the broker).
    std::unique_ptr<sim::Simulation> m_sim;
    std::optional<sim::Scenario> m_scenario;
    std::unique_ptr<sim::LessonRun> m_lesson;
    bool m_pauseForLesson = false; // a step with pauseWhenMet was met during a step()
    std::optional<engine::Millis> m_runUntil;
    engine::Millis m_brokerFloor = 0; // one past the last time the broker was advanced to
    ActorLag m_lag;
    bool m_serving = false;         // inside runDue()
    engine::Millis m_timerDue = 0;  // when the timer is due, in m_real's milliseconds
    std::uint64_t m_eventCount = 0; // events seen, for runToNextEvent
    std::uint64_t m_actions = 0;    // actor actions run, for runToNextEvent
    bool m_actorsDirty = false;
    QElapsedTimer m_actorsSignalled;
    QTimer m_actorsTimer;
};

} // namespace inflight::session
