#pragma once

#include "engine/clock.h"
#include "ui/models/throughput_series.h"

#include <QWidget>

#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTimer;

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The charts tab: for the selected queue or for all queues, messages sent, received and deleted
// per second, visibility expiries, DLQ moves and empty receives per second (top), and messages
// available, in flight and delayed with the age of the oldest message on its own axis (bottom),
// over the last minutes of engine time or of the wall clock (after a run at 60x, when it
// happened). A presentation timer asks the ThroughputSeries for a sample (it takes one per engine
// second), so pause, speed and steps move the charts as they move everything. Widgets:
// chartScopeCombo, chartWindowCombo, chartClockCombo, chartLiveCheck, rateChartView,
// levelChartView.
class ThroughputChartView : public QWidget {
    Q_OBJECT
public:
    ThroughputChartView(session::Session& session, QWidget* parent = nullptr);

    ThroughputSeries& series() { return *m_series; }
    // The queue the "selected queue" scope shows.
    void setQueue(const QString& queue);
    // True: all queues together; false: the selected queue.
    void setAllQueues(bool all);
    bool showsAllQueues() const;
    // Minutes shown (1, 5, 10, 30 or 60), of engine time or of the wall clock.
    void setWindowMinutes(int minutes);
    int windowMinutes() const;
    // The time axis: engine time (the default) or the wall clock the samples were taken at.
    void setClock(ThroughputSeries::Clock clock);
    ThroughputSeries::Clock clock() const;

    // Samples now (if an engine second has passed) and redraws.
    void sampleNow();
    // The samples the chart shows for `metric` (after the last redraw); a rate's line draws them
    // as steps, each value over the second it was counted in.
    QList<QPointF> shownPoints(ThroughputSeries::Metric metric) const;
    // Live (the default): the charts follow engine time. Off: they stand still, to zoom (drag a
    // rectangle; right click zooms out) and scroll (the wheel) through what they hold.
    void setLive(bool live);
    bool isLive() const { return m_live; }
    // Both charts' time axis, from and to (epoch ms of the clock shown): one range for both.
    std::pair<qint64, qint64> timeRange(int chart) const;
    // Where a chart's plot begins and ends, in the chart (both the same once laid out).
    qreal plotLeft(int chart) const;
    qreal plotRight(int chart) const;
    // The range of the oldest message's age axis (seconds, right of the messages chart).
    std::pair<double, double> ageRange() const;
    // The text shown on hovering `metric`'s line at `point`: "12:00:05 sent/s 3".
    static QString hoverText(ThroughputSeries::Metric metric, QPointF point);
    // An axis maximum and a whole-number tick step for values up to `max`: 5 ticks or fewer.
    static std::pair<double, double> integerScale(double max);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Line {
        ThroughputSeries::Metric metric;
        QLineSeries* series;
        QList<QPointF> shown; // the samples, before a rate's steps
    };

    QChart* makeChart(const QString& title, const std::vector<ThroughputSeries::Metric>& metrics,
                      QDateTimeAxis*& xAxis, QValueAxis*& yAxis);
    void redraw();
    void applyPalette();
    void alignPlots();

    session::Session& m_session;
    ThroughputSeries* m_series = nullptr;
    QString m_queue;
    QComboBox* m_scope = nullptr;
    QComboBox* m_window = nullptr;
    QChartView* m_rateView = nullptr;
    QChartView* m_levelView = nullptr;
    QDateTimeAxis* m_rateX = nullptr;
    QValueAxis* m_rateY = nullptr;
    QDateTimeAxis* m_levelX = nullptr;
    QValueAxis* m_levelY = nullptr;
    QValueAxis* m_ageY = nullptr;
    QComboBox* m_clock = nullptr;
    std::vector<Line> m_lines;
    QTimer* m_timer = nullptr;
    QCheckBox* m_liveBox = nullptr;
    bool m_live = true;
};

} // namespace inflight::ui
