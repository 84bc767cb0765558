#pragma once

#include "engine/clock.h"
#include "ui/models/throughput_series.h"

#include <QWidget>

#include <vector>

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
// per second, visibility expiries and DLQ moves per second (top), and messages available, in
// flight and delayed (bottom), over the last minutes of engine time. A presentation timer asks the
// ThroughputSeries for a sample (it takes one per engine second), so pause, speed and steps move
// the charts as they move everything. Widgets: chartScopeCombo, chartWindowCombo, rateChartView,
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
    // Minutes of engine time shown (1, 5 or 10).
    void setWindowMinutes(int minutes);
    int windowMinutes() const;

    // Samples now (if an engine second has passed) and redraws.
    void sampleNow();
    // The points the chart shows for `metric` (after the last redraw).
    QList<QPointF> shownPoints(ThroughputSeries::Metric metric) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Line {
        ThroughputSeries::Metric metric;
        QLineSeries* series;
    };

    QChart* makeChart(const QString& title, const std::vector<ThroughputSeries::Metric>& metrics,
                      QDateTimeAxis*& xAxis, QValueAxis*& yAxis);
    void redraw();
    void applyPalette();

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
    std::vector<Line> m_lines;
    QTimer* m_timer = nullptr;
};

} // namespace inflight::ui
