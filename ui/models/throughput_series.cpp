#include "ui/models/throughput_series.h"

#include "session/session.h"
#include "sim/simulation.h"
#include "ui/models/model_text.h"

#include <QDateTime>

#include <algorithm>

namespace inflight::ui {

namespace {
constexpr int kRateCount = 8;
} // namespace

ThroughputSeries::ThroughputSeries(session::Session& session, QObject* parent,
                                   engine::Millis window)
    : QObject(parent),
      m_session(session),
      m_window(window),
      m_lastTime(session.displayTime()),
      m_lastWall(QDateTime::currentMSecsSinceEpoch())
{
    const auto actors = actorTotals();
    for (const engine::QueueView& view : m_session.broker().queues())
        m_queues[view.name].last = countersOf(view.stats, actors, view.name);
    connect(&m_session, &session::Session::eventsReady, this, &ThroughputSeries::onEvents);
}

ThroughputSeries::Counters ThroughputSeries::countersOf(
    const engine::QueueStats& s, const std::map<std::string, std::array<std::int64_t, 2>>& actors,
    const std::string& queue)
{
    const auto figures = actors.find(queue);
    const std::array<std::int64_t, 2> processed
        = figures == actors.end() ? std::array<std::int64_t, 2>{} : figures->second;
    return Counters{{s.sent, s.received, s.deleted, s.visibilityExpired, s.movedToDeadLetter,
                     s.emptyReceives, processed[0], processed[1]}};
}

std::map<std::string, std::array<std::int64_t, 2>> ThroughputSeries::actorTotals() const
{
    std::map<std::string, std::array<std::int64_t, 2>> totals;
    if (const sim::Simulation* simulation = m_session.simulation()) {
        for (const sim::ActorInfo& actor : simulation->actors()) {
            auto& sums = totals[sim::actorQueue(actor.spec)];
            sums[0] += actor.figures.processed;
            sums[1] += actor.figures.processedMoreThanOnce;
        }
    }
    return totals;
}

void ThroughputSeries::onEvents(const std::vector<engine::Event>& events)
{
    for (const engine::Event& e : events) {
        if (e.kind == engine::EventKind::QueueCreated)
            m_queues.try_emplace(e.queue); // counters start at zero; keep a baseline already taken
        else if (e.kind == engine::EventKind::QueueDeleted)
            m_queues.erase(e.queue);
    }
}

bool ThroughputSeries::sample(engine::Millis now)
{
    return sample(now, QDateTime::currentMSecsSinceEpoch());
}

bool ThroughputSeries::sample(engine::Millis now, qint64 wallNow)
{
    if (now - m_lastTime < kSampleInterval)
        return false;
    const double seconds = static_cast<double>(now - m_lastTime) / 1000.0;
    constexpr auto oldest = static_cast<std::size_t>(Metric::OldestAge);
    Sample all;
    all.time = now;
    all.wall = wallNow;
    engine::Broker& broker = m_session.broker();
    const auto actors = actorTotals();
    for (auto& [name, series] : m_queues) {
        auto stats = broker.queueStats(name);
        if (!stats)
            continue;
        const Counters counters = countersOf(*stats, actors, name);
        Sample s;
        s.time = now;
        s.wall = wallNow;
        for (int i = 0; i < kRateCount; ++i)
            s.values[i] // a new simulation starts its figures from zero: no negative rates
                = static_cast<double>(
                      std::max<std::int64_t>(counters.totals[i] - series.last.totals[i], 0))
                / seconds;
        s.values[static_cast<int>(Metric::Available)] = static_cast<double>(stats->available);
        s.values[static_cast<int>(Metric::InFlight)] = static_cast<double>(stats->inFlight);
        s.values[static_cast<int>(Metric::Delayed)] = static_cast<double>(stats->delayed);
        s.values[oldest] = static_cast<double>(stats->oldestMessageAge) / 1000.0;
        for (std::size_t i = 0; i < kMetricCount; ++i)
            all.values[i]
                = i == oldest ? std::max(all.values[i], s.values[i]) : all.values[i] + s.values[i];
        series.last = counters;
        series.samples.push_back(s);
        trim(series.samples, now);
    }
    m_all.push_back(all);
    trim(m_all, now);
    m_lastTime = now;
    m_lastWall = wallNow;
    Q_EMIT sampled(now);
    return true;
}

void ThroughputSeries::trim(std::deque<Sample>& samples, engine::Millis now) const
{
    while (!samples.empty() && samples.front().time < now - m_window)
        samples.pop_front();
}

QList<QPointF> ThroughputSeries::points(const QString& queue, Metric metric, Clock clock) const
{
    const std::deque<Sample>* samples = &m_all;
    if (!queue.isEmpty()) {
        auto it = m_queues.find(queue.toStdString());
        if (it == m_queues.end())
            return {};
        samples = &it->second.samples;
    }
    QList<QPointF> result;
    result.reserve(static_cast<qsizetype>(samples->size()));
    const auto i = static_cast<std::size_t>(metric);
    for (const Sample& s : *samples)
        result.append(
            QPointF(static_cast<qreal>(clock == Clock::Engine ? s.time : s.wall), s.values[i]));
    return result;
}

QStringList ThroughputSeries::queues() const
{
    QStringList names;
    for (const auto& [name, series] : m_queues)
        names.append(toQString(name));
    return names;
}

bool ThroughputSeries::isRate(Metric metric)
{
    return static_cast<int>(metric) < kRateCount;
}

QString ThroughputSeries::metricName(Metric metric)
{
    switch (metric) {
    case Metric::Sent: return tr("sent/s");
    case Metric::Received: return tr("received/s");
    case Metric::Deleted: return tr("deleted/s");
    case Metric::VisibilityExpired: return tr("visibility expiries/s");
    case Metric::MovedToDeadLetter: return tr("DLQ moves/s");
    case Metric::EmptyReceives: return tr("empty receives/s");
    case Metric::Processed: return tr("processed/s");
    case Metric::ProcessedMoreThanOnce: return tr("processed again/s");
    case Metric::Available: return tr("available");
    case Metric::InFlight: return tr("in flight");
    case Metric::Delayed: return tr("delayed");
    case Metric::OldestAge: return tr("oldest message, s");
    }
    return {};
}

} // namespace inflight::ui
