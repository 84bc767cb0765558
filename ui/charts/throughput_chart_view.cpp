#include "ui/charts/throughput_chart_view.h"

#include "session/session.h"
#include "sim/simulation.h"
#include "ui/widgets/palette_colors.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSplitter>
#include <QTimer>
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
    for (int minutes : {1, 5, 10})
        m_window->addItem((minutes == 1 ? tr("last minute") : tr("last %1 minutes").arg(minutes)),
                          minutes);
    m_window->setCurrentIndex(1);
    auto* note = new QLabel(tr("in engine time"), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_scope);
    controls->addWidget(m_window);
    controls->addWidget(note);
    controls->addStretch();
    layout->addLayout(controls);

    QChart* rates
        = makeChart(tr("Per second"),
                    {Metric::Sent, Metric::Received, Metric::Deleted, Metric::VisibilityExpired,
                     Metric::MovedToDeadLetter, Metric::Processed, Metric::ProcessedMoreThanOnce},
                    m_rateX, m_rateY);
    QChart* levels = makeChart(
        tr("Messages"), {Metric::Available, Metric::InFlight, Metric::Delayed}, m_levelX, m_levelY);
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

    connect(m_scope, &QComboBox::currentIndexChanged, this, &ThroughputChartView::redraw);
    connect(m_window, &QComboBox::currentIndexChanged, this, &ThroughputChartView::redraw);
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
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
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
        line->attachAxis(yAxis);
        m_lines.push_back(Line{metric, line});
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

void ThroughputChartView::sampleNow()
{
    m_session.serveDue(); // a sample reads the queues: what fell due first, at its own time
    m_series->sample(m_session.displayTime()); // emits sampled() ⇒ redraw when it took one
}

QList<QPointF> ThroughputChartView::shownPoints(Metric metric) const
{
    for (const Line& line : m_lines)
        if (line.metric == metric)
            return line.series->points();
    return {};
}

void ThroughputChartView::redraw()
{
    const QString queue = showsAllQueues() ? QString() : m_queue;
    const engine::Millis now = m_session.displayTime();
    const engine::Millis from = now - windowMinutes() * 60 * engine::kSecond;
    double rateMax = 1.0;
    double levelMax = 1.0;
    // The actors' series only while a simulation has actors (issue 13's duplicate processing).
    const bool actors = m_session.simulation() && m_session.simulation()->size() > 0;
    for (const Line& line : m_lines) {
        if (line.metric == Metric::Processed || line.metric == Metric::ProcessedMoreThanOnce) {
            line.series->setVisible(actors);
            for (QLegendMarker* marker : line.series->chart()->legend()->markers(line.series))
                marker->setVisible(actors);
            if (!actors)
                continue;
        }
        QList<QPointF> points;
        if (showsAllQueues() || !queue.isEmpty())
            points = m_series->points(queue, line.metric);
        points.erase(std::remove_if(points.begin(), points.end(),
                                    [from](const QPointF& p) { return p.x() < double(from); }),
                     points.end());
        double& max = ThroughputSeries::isRate(line.metric) ? rateMax : levelMax;
        for (const QPointF& p : points)
            max = std::max(max, p.y());
        line.series->replace(points);
    }
    const auto niceMax = [](double max) {
        const double step = std::pow(10.0, std::floor(std::log10(max)));
        return std::ceil(max * 1.1 / step) * step;
    };
    for (QDateTimeAxis* x : {m_rateX, m_levelX})
        x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(now));
    m_rateY->setRange(0, niceMax(rateMax));
    m_levelY->setRange(0, niceMax(levelMax));
    m_rateY->setLabelFormat(rateMax < 5 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
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
