#include "ui/charts/throughput_chart_view.h"

#include "session/session.h"
#include "sim/simulation.h"
#include "ui/widgets/palette_colors.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSplitter>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace inflight::ui {

namespace {

using Metric = ThroughputSeries::Metric;

} // namespace

ThroughputChartView::ThroughputChartView(session::Session& session, QWidget* parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("chartsView"));
    m_series = new ThroughputSeries(session, this);

    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("chartScopeCombo"));
    m_scope->addItem(tr("Selected queue"));
    m_scope->addItem(tr("All queues"));
    m_window = new QComboBox(this);
    m_window->setObjectName(QStringLiteral("chartWindowCombo"));
    for (int minutes : {1, 5, 10, 30, 60})
        m_window->addItem((minutes == 1 ? tr("last minute") : tr("last %1 minutes").arg(minutes)),
                          minutes);
    m_window->setCurrentIndex(1);
    m_clock = new QComboBox(this);
    m_clock->setObjectName(QStringLiteral("chartClockCombo"));
    m_clock->addItem(tr("of engine time"), int(ThroughputSeries::Clock::Engine));
    m_clock->addItem(tr("of the wall clock"), int(ThroughputSeries::Clock::Wall));
    m_clock->setToolTip(tr("Engine time runs at the chosen speed; the wall clock shows when it "
                           "happened (after a run at 60x, an hour of engine time is a minute)"));
    m_liveBox = new QCheckBox(tr("&Live"), this);
    m_liveBox->setObjectName(QStringLiteral("chartLiveCheck"));
    m_liveBox->setChecked(true);
    m_liveBox->setToolTip(tr("Follow engine time. Uncheck to stop the charts, then drag a "
                             "rectangle to zoom, right-click to zoom out, scroll to pan"));
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_scope);
    controls->addWidget(m_window);
    controls->addWidget(m_clock);
    controls->addStretch();
    controls->addWidget(m_liveBox);
    layout->addLayout(controls);

    QChart* rates
        = makeChart(tr("Per second"),
                    {Metric::Sent, Metric::Received, Metric::Deleted, Metric::VisibilityExpired,
                     Metric::MovedToDeadLetter, Metric::EmptyReceives, Metric::Processed,
                     Metric::ProcessedMoreThanOnce},
                    m_rateX, m_rateY);
    QChart* levels = makeChart(
        tr("Messages"), {Metric::Available, Metric::InFlight, Metric::Delayed, Metric::OldestAge},
        m_levelX, m_levelY);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_rateView = new QChartView(rates, splitter);
    m_rateView->setObjectName(QStringLiteral("rateChartView"));
    m_rateView->setRenderHint(QPainter::Antialiasing);
    m_levelView = new QChartView(levels, splitter);
    m_levelView->setObjectName(QStringLiteral("levelChartView"));
    m_levelView->setRenderHint(QPainter::Antialiasing);
    splitter->addWidget(m_rateView);
    splitter->addWidget(m_levelView);
    layout->addWidget(splitter, 1);

    for (QChartView* view : {m_rateView, m_levelView}) {
        view->setRubberBand(QChartView::HorizontalRubberBand);
        connect(view->chart(), &QChart::plotAreaChanged, this, &ThroughputChartView::alignPlots);
    }
    connect(m_liveBox, &QCheckBox::toggled, this, &ThroughputChartView::setLive);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &ThroughputChartView::redraw);
    connect(m_window, &QComboBox::currentIndexChanged, this, &ThroughputChartView::redraw);
    connect(m_clock, &QComboBox::currentIndexChanged, this, [this] {
        for (QChartView* view : {m_rateView, m_levelView})
            view->chart()->zoomReset();
        redraw();
    });
    connect(m_series, &ThroughputSeries::sampled, this, &ThroughputChartView::redraw);
    // Presentation only: asks for a sample; the series takes one per second of engine time.
    m_timer = new QTimer(this);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &ThroughputChartView::sampleNow);
    m_timer->start();
    applyPalette();
    redraw();
}

QChart* ThroughputChartView::makeChart(const QString& title, const std::vector<Metric>& metrics,
                                       QDateTimeAxis*& xAxis, QValueAxis*& yAxis)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    // Legends on top: the plots keep the whole width, the same for both charts.
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(4, 4, 12, 4));
    xAxis = new QDateTimeAxis(chart);
    xAxis->setFormat(QStringLiteral("HH:mm:ss"));
    xAxis->setTickCount(6);
    yAxis = new QValueAxis(chart);
    yAxis->setLabelFormat(QStringLiteral("%.0f"));
    yAxis->setMin(0);
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (Metric metric : metrics) {
        auto* line = new QLineSeries(chart);
        line->setName(ThroughputSeries::metricName(metric));
        chart->addSeries(line);
        line->attachAxis(xAxis);
        if (metric == Metric::OldestAge) {
            // Seconds, not messages: an axis of its own on the right.
            m_ageY = new QValueAxis(chart);
            m_ageY->setTitleText(tr("age, s"));
            m_ageY->setMin(0);
            m_ageY->setGridLineVisible(false); // the messages' grid is the chart's
            chart->addAxis(m_ageY, Qt::AlignRight);
            line->attachAxis(m_ageY);
        } else {
            line->attachAxis(yAxis);
        }
        connect(line, &QLineSeries::hovered, this, [this, metric](QPointF point, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), hoverText(metric, point));
            else
                QToolTip::hideText();
        });
        m_lines.push_back(Line{metric, line, {}});
    }
    return chart;
}

void ThroughputChartView::setQueue(const QString& queue)
{
    m_queue = queue;
    m_scope->setItemText(0, queue.isEmpty() ? tr("Selected queue") : tr("Queue %1").arg(queue));
    redraw();
}

void ThroughputChartView::setAllQueues(bool all)
{
    m_scope->setCurrentIndex(all ? 1 : 0);
}

bool ThroughputChartView::showsAllQueues() const
{
    return m_scope->currentIndex() == 1;
}

void ThroughputChartView::setWindowMinutes(int minutes)
{
    const int index = m_window->findData(minutes);
    if (index >= 0)
        m_window->setCurrentIndex(index);
}

int ThroughputChartView::windowMinutes() const
{
    return m_window->currentData().toInt();
}

void ThroughputChartView::setClock(ThroughputSeries::Clock clock)
{
    m_clock->setCurrentIndex(m_clock->findData(int(clock)));
}

ThroughputSeries::Clock ThroughputChartView::clock() const
{
    return ThroughputSeries::Clock(m_clock->currentData().toInt());
}

void ThroughputChartView::sampleNow()
{
    m_session.serveDue(); // a sample reads the queues: what fell due first, at its own time
    m_series->sample(m_session.displayTime()); // emits sampled() ⇒ redraw when it took one
}

QList<QPointF> ThroughputChartView::shownPoints(Metric metric) const
{
    for (const Line& line : m_lines)
        if (line.metric == metric)
            return line.shown;
    return {};
}

void ThroughputChartView::alignPlots()
{
    // The time axes line up: the chart with the narrower value labels on a side gets the
    // difference as margin (what the labels take is the plot's edge less the margin, whatever
    // the margin). Only the messages chart has labels on the right (the age axis).
    QChart* charts[] = {m_rateView->chart(), m_levelView->chart()};
    qreal left[2];
    qreal right[2];
    for (int i = 0; i < 2; ++i) {
        const QRectF plot = charts[i]->plotArea();
        left[i] = plot.left() - charts[i]->margins().left();
        right[i] = charts[i]->size().width() - plot.right() - charts[i]->margins().right();
    }
    const qreal widestLeft = std::max(left[0], left[1]);
    const qreal widestRight = std::max(right[0], right[1]);
    for (int i = 0; i < 2; ++i) {
        QMargins margins = charts[i]->margins();
        const QMargins wanted(4 + int(std::lround(widestLeft - left[i])), margins.top(),
                              12 + int(std::lround(widestRight - right[i])), margins.bottom());
        if (margins != wanted)
            charts[i]->setMargins(wanted);
    }
}

qreal ThroughputChartView::plotLeft(int chart) const
{
    return (chart == 0 ? m_rateView : m_levelView)->chart()->plotArea().left();
}

qreal ThroughputChartView::plotRight(int chart) const
{
    return (chart == 0 ? m_rateView : m_levelView)->chart()->plotArea().right();
}

std::pair<double, double> ThroughputChartView::ageRange() const
{
    return {m_ageY->min(), m_ageY->max()};
}

void ThroughputChartView::setLive(bool live)
{
    m_live = live;
    if (m_liveBox->isChecked() != live)
        m_liveBox->setChecked(live);
    if (live) {
        for (QChartView* view : {m_rateView, m_levelView})
            view->chart()->zoomReset();
        redraw();
    }
}

std::pair<qint64, qint64> ThroughputChartView::timeRange(int chart) const
{
    const QDateTimeAxis* axis = chart == 0 ? m_rateX : m_levelX;
    return {axis->min().toMSecsSinceEpoch(), axis->max().toMSecsSinceEpoch()};
}

QString ThroughputChartView::hoverText(Metric metric, QPointF point)
{
    const QString time
        = QDateTime::fromMSecsSinceEpoch(qint64(point.x())).toString(QStringLiteral("HH:mm:ss"));
    const double value = point.y();
    const QString number = std::abs(value - std::round(value)) < 1e-9
        ? QString::number(qint64(std::llround(value)))
        : QString::number(value, 'f', 1);
    return QStringLiteral("%1  %2 %3").arg(time, ThroughputSeries::metricName(metric), number);
}

std::pair<double, double> ThroughputChartView::integerScale(double max)
{
    // Steps of 1, 2 or 5 times a power of ten, the smallest giving at most 5 ticks above 0.
    if (!std::isfinite(max) || max < 0)
        max = 0;
    double step = 1;
    for (double magnitude = 1;; magnitude *= 10) {
        bool found = false;
        for (double factor : {1.0, 2.0, 5.0}) {
            step = factor * magnitude;
            if (max <= step * 5) {
                found = true;
                break;
            }
        }
        if (found)
            break;
    }
    return {std::max(step, std::ceil(max / step) * step), step};
}

void ThroughputChartView::redraw()
{
    if (!m_live)
        return; // stands still: zoom and scroll what it shows
    const QString queue = showsAllQueues() ? QString() : m_queue;
    const ThroughputSeries::Clock shown = clock();
    const bool wall = shown == ThroughputSeries::Clock::Wall;
    const qint64 now = wall ? QDateTime::currentMSecsSinceEpoch() : m_session.displayTime();
    const qint64 from = now - windowMinutes() * 60 * engine::kSecond;
    m_rateView->chart()->setTitle(wall ? tr("Per second of engine time") : tr("Per second"));
    double rateMax = 0.0;
    double levelMax = 0.0;
    double ageMax = 0.0;
    // The actors' series only while a simulation has actors (issue 13's duplicate processing).
    const bool actors = m_session.simulation() && m_session.simulation()->size() > 0;
    for (Line& line : m_lines) {
        if (line.metric == Metric::Processed || line.metric == Metric::ProcessedMoreThanOnce) {
            line.series->setVisible(actors);
            for (QLegendMarker* marker : line.series->chart()->legend()->markers(line.series))
                marker->setVisible(actors);
            if (!actors)
                continue;
        }
        QList<QPointF> points;
        if (showsAllQueues() || !queue.isEmpty())
            points = m_series->points(queue, line.metric, shown);
        points.erase(std::remove_if(points.begin(), points.end(),
                                    [from](const QPointF& p) { return p.x() < double(from); }),
                     points.end());
        const bool rate = ThroughputSeries::isRate(line.metric);
        double& max = rate ? rateMax : line.metric == Metric::OldestAge ? ageMax : levelMax;
        for (const QPointF& p : points)
            max = std::max(max, p.y());
        line.shown = points;
        if (rate && points.size() > 1) {
            // A rate is counted over the second before its sample: a step, not a slope.
            QList<QPointF> steps;
            steps.reserve(points.size() * 2);
            steps << points.front();
            for (qsizetype i = 1; i < points.size(); ++i)
                steps << QPointF(points[i - 1].x(), points[i].y()) << points[i];
            line.series->replace(steps);
        } else {
            line.series->replace(points);
        }
    }
    // One time range for both charts; whole-number ticks for counts and rates.
    for (QDateTimeAxis* x : {m_rateX, m_levelX})
        x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(now));
    for (auto [axis, max] :
         {std::pair{m_rateY, rateMax}, std::pair{m_levelY, levelMax}, std::pair{m_ageY, ageMax}}) {
        const auto [top, step] = integerScale(max);
        if (axis->min() == 0 && axis->max() == top && axis->tickInterval() == step)
            continue;
        // Fixed ticks while the range changes: a dynamic axis lays out a tick per interval at
        // once, and the old interval over the new range can be millions of them (a 1 s step
        // against a million messages, or an age of days).
        axis->setTickType(QValueAxis::TicksFixed);
        axis->setRange(0, top);
        axis->setTickAnchor(0);
        axis->setTickInterval(step);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setLabelFormat(QStringLiteral("%.0f"));
    }
}

void ThroughputChartView::applyPalette()
{
    const QPalette p = palette();
    for (QChartView* view : {m_rateView, m_levelView}) {
        QChart* chart = view->chart();
        chart->setTheme(isDarkPalette(p) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setBackgroundBrush(p.color(QPalette::Base));
        chart->setTitleBrush(p.color(QPalette::Text));
        chart->legend()->setLabelColor(p.color(QPalette::Text));
        for (QAbstractAxis* axis : chart->axes()) {
            axis->setLabelsColor(p.color(QPalette::Text));
            axis->setTitleBrush(p.color(QPalette::Text));
            axis->setGridLineColor(blend(p.color(QPalette::Base), p.color(QPalette::Text), 0.15));
            axis->setLinePenColor(p.color(QPalette::Mid));
        }
    }
    // Series take the chart theme's colours (light or dark), except the two that mean something:
    // DLQ moves in the warning colour, delayed messages as a quiet dashed line.
    for (const Line& line : m_lines) {
        QPen pen = line.series->pen();
        pen.setWidthF(2.0);
        if (line.metric == Metric::MovedToDeadLetter)
            pen.setColor(warningColor(p));
        // The simulation's two: colours of their own (the theme has five).
        if (line.metric == Metric::Processed)
            pen.setColor(QColor(0x17, 0xbe, 0xcf));
        if (line.metric == Metric::ProcessedMoreThanOnce) {
            pen.setColor(QColor(0xd6, 0x33, 0x84));
            pen.setWidthF(2.5);
        }
        if (line.metric == Metric::Delayed) {
            pen.setColor(p.color(QPalette::Mid));
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(1.5);
        }
        if (line.metric == Metric::EmptyReceives)
            pen.setColor(QColor(0x8c, 0x56, 0x4b));
        if (line.metric == Metric::OldestAge) { // dotted: read against the right-hand axis
            pen.setColor(QColor(0x94, 0x67, 0xbd));
            pen.setStyle(Qt::DotLine);
        }
        line.series->setPen(pen);
    }
}

void ThroughputChartView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

} // namespace inflight::ui
