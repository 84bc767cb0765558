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
// received, deleted, visibility expiries, DLQ moves) from counter deltas, and levels (available,
// in flight, delayed), for each queue and for all queues together, over the last window() of
// engine time. The chart drives it: sample(now) takes a sample when at least a second of engine
// time has passed since the last one, so pause, speed and steps apply as they do to everything.
class ThroughputSeries : public QObject {
    Q_OBJECT
public:
    enum class Metric {
        Sent,
        Received,
        Deleted,
        VisibilityExpired,
        MovedToDeadLetter,
        Processed,             // by the simulation's consumers (sim::ActorFigures::processed)
        ProcessedMoreThanOnce, // duplicate processing, the figure training is about
        Available,
        InFlight,
        Delayed,
    };
    static constexpr int kMetricCount = 10;
    static constexpr engine::Millis kSampleInterval = engine::kSecond;
    // An hour of engine time (3,600 samples a queue), what the charts can show at most.
    static constexpr engine::Millis kDefaultWindow = 60 * 60 * engine::kSecond;

    // `session` must outlive the series. The counters at construction are the first baseline.
    explicit ThroughputSeries(session::Session& session, QObject* parent = nullptr,
                              engine::Millis window = kDefaultWindow);

    // Takes a sample at engine time `now` if kSampleInterval has passed since the last; true if
    // it did. Rates are averaged over the time since the last sample.
    bool sample(engine::Millis now);

    // x = engine time (epoch ms), y = per second (rates) or messages (levels), oldest first.
    // `queue` empty ⇒ all queues together. Empty for an unknown queue.
    QList<QPointF> points(const QString& queue, Metric metric) const;
    // The queues sampled so far that still exist.
    QStringList queues() const;
    engine::Millis window() const { return m_window; }
    engine::Millis lastSampleTime() const { return m_lastTime; }

    static bool isRate(Metric metric);
    // "sent/s", "in flight", ...
    static QString metricName(Metric metric);

Q_SIGNALS:
    void sampled(engine::Millis time);

private:
    struct Sample {
        engine::Millis time = 0;
        std::array<double, kMetricCount> values{};
    };
    struct Counters {
        std::array<std::int64_t, 7> totals{}; // the monotonic counters of the rate metrics
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
    std::map<std::string, Series> m_queues;
    std::deque<Sample> m_all;
};

} // namespace inflight::ui
