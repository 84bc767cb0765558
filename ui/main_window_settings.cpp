// The window's layout and choices kept across runs (QSettings): geometry, docks, the message
// table's columns, the tab, the queue, the state filter, the charts' span.

#include "ui/main_window.h"

#include "ui/charts/throughput_chart_view.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

namespace inflight::ui {

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("messageHeader"),
                      messageView()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("queueHeader"), m_queueDock->saveHeader());
    settings.setValue(QStringLiteral("messageSplitter"), m_messagesPage->saveState());
    settings.setValue(QStringLiteral("tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("queue"), m_currentQueue);
    settings.setValue(QStringLiteral("stateFilter"), m_messagesPage->stateFilter()->currentIndex());
    settings.endGroup();
    settings.beginGroup(QStringLiteral("charts"));
    settings.setValue(QStringLiteral("allQueues"), m_charts->showsAllQueues());
    settings.setValue(QStringLiteral("minutes"), m_charts->windowMinutes());
    settings.endGroup();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    if (settings.contains(QStringLiteral("geometry")))
        restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    if (settings.contains(QStringLiteral("state")))
        m_layoutRestored = restoreState(settings.value(QStringLiteral("state")).toByteArray());
    if (settings.contains(QStringLiteral("messageHeader")))
        messageView()->horizontalHeader()->restoreState(
            settings.value(QStringLiteral("messageHeader")).toByteArray());
    if (settings.contains(QStringLiteral("queueHeader")))
        m_queueDock->restoreHeader(settings.value(QStringLiteral("queueHeader")).toByteArray());
    if (settings.contains(QStringLiteral("messageSplitter")))
        m_messagesPage->restoreState(
            settings.value(QStringLiteral("messageSplitter")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("tab"), 0).toInt());
    m_messagesPage->stateFilter()->setCurrentIndex(
        settings.value(QStringLiteral("stateFilter"), 0).toInt());
    const QString queue = settings.value(QStringLiteral("queue")).toString();
    settings.endGroup();
    settings.beginGroup(QStringLiteral("charts"));
    m_charts->setAllQueues(settings.value(QStringLiteral("allQueues"), false).toBool());
    m_charts->setWindowMinutes(settings.value(QStringLiteral("minutes"), 5).toInt());
    settings.endGroup();
    if (!queue.isEmpty())
        selectQueue(queue);
}

} // namespace inflight::ui
