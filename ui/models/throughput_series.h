#pragma once

#include "engine/events.h"
#include "engine/views.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <QStringList>

#include <array>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// Per-queue counters sampled over engine time for the charts: rates per engine second (sent,
// received, deleted, visibility expiries, DLQ moves, empty receives) from counter deltas, and
// levels (available, in flight, delayed, the oldest message's age), for each queue and for all
// queues together, over the last window() of engine time. The chart drives it: sample(now) takes
// a sample when at least a second of engine time has passed since the last one, so pause, speed
// and steps apply as they do to everything. Each sample also keeps the wall-clock time it was
// taken at, so a run at 60x can be read against the wall clock afterwards.
class ThroughputSeries : public QObject {
    Q_OBJECT
public:
    enum class Metric {
        Sent,
        Received,
        Deleted,
        VisibilityExpired,
        MovedToDeadLetter,
        EmptyReceives,         // receives that returned nothing (engine::QueueStats)
        Processed,             // by the simulation's consumers (sim::ActorFigures::processed)
        ProcessedMoreThanOnce, // duplicate processing, the figure training is about
        Available,
        InFlight,
        Delayed,
        OldestAge, // seconds; for all queues together the oldest of all
    };
    static constexpr int kMetricCount = 12;
    // Which clock a point's x is: engine time, or the wall clock when the sample was taken.
    enum class Clock { Engine, Wall };
    static constexpr engine::Millis kSampleInterval = engine::kSecond;
    // An hour of engine time (3,600 samples a queue), what the charts can show at most.
    static constexpr engine::Millis kDefaultWindow = 60 * 60 * engine::kSecond;

    // `session` must outlive the series. The counters at construction are the first baseline.
    explicit ThroughputSeries(session::Session& session, QObject* parent = nullptr,
                              engine::Millis window = kDefaultWindow);

    // Takes a sample at engine time `now` if kSampleInterval has passed since the last; true if
    // it did. Rates are averaged over the time since the last sample. `wallNow` (epoch ms) is the
    // wall-clock time it is taken at; the overload without it reads the system clock.
    bool sample(engine::Millis now, qint64 wallNow);
    bool sample(engine::Millis now);

    // x = engine time or the wall-clock time of the sample (epoch ms), y = per engine second
    // (rates), messages or seconds (levels), oldest first. `queue` empty ⇒ all queues together.
    // Empty for an unknown queue.
    QList<QPointF> points(const QString& queue, Metric metric, Clock clock = Clock::Engine) const;
    // The queues sampled so far that still exist.
    QStringList queues() const;
    engine::Millis window() const { return m_window; }
    engine::Millis lastSampleTime() const { return m_lastTime; }
    qint64 lastSampleWallTime() const { return m_lastWall; }

    static bool isRate(Metric metric);
    // "sent/s", "in flight", ...
    static QString metricName(Metric metric);

Q_SIGNALS:
    void sampled(engine::Millis time);

private:
    struct Sample {
        engine::Millis time = 0;
        qint64 wall = 0;
        std::array<double, kMetricCount> values{};
    };
    struct Counters {
        std::array<std::int64_t, 8> totals{}; // the monotonic counters of the rate metrics
    };
    struct Series {
        Counters last;
        std::deque<Sample> samples;
    };

    void onEvents(const std::vector<engine::Event>& events);
    // The queue's counters; the actors' figures come from `actors` (by queue name).
    static Counters countersOf(const engine::QueueStats& stats,
                               const std::map<std::string, std::array<std::int64_t, 2>>& actors,
                               const std::string& queue);
    // Each queue's consumers' processed and processed-more-than-once figures, summed.
    std::map<std::string, std::array<std::int64_t, 2>> actorTotals() const;
    void trim(std::deque<Sample>& samples, engine::Millis now) const;

    session::Session& m_session;
    engine::Millis m_window;
    engine::Millis m_lastTime;
    qint64 m_lastWall = 0;
    std::map<std::string, Series> m_queues;
    std::deque<Sample> m_all;
};

} // namespace inflight::ui
