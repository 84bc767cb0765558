#include "main_window.h"

#include "session/session.h"

#include <QDateTime>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

namespace inflight::ui {

MainWindow::MainWindow(session::Session& session, QWidget* parent)
    : QMainWindow(parent), m_session(session)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Inflight"));
    resize(960, 600);

    auto* central = new QWidget(this);
    central->setObjectName(QStringLiteral("placeholder"));
    auto* layout = new QVBoxLayout(central);

    auto* message = new QLabel(tr("The queue workbench is being built.\n"
                                  "Queues, messages and their timelines will appear here."),
                               central);
    message->setObjectName(QStringLiteral("placeholderLabel"));
    message->setAlignment(Qt::AlignCenter);

    m_status = new QLabel(central);
    m_status->setObjectName(QStringLiteral("engineClockLabel"));
    m_status->setAlignment(Qt::AlignCenter);

    layout->addStretch();
    layout->addWidget(message);
    layout->addWidget(m_status);
    layout->addStretch();
    setCentralWidget(central);

    // Presentation only: the engine's own time rules never run on a Qt timer.
    auto* tick = new QTimer(this);
    tick->setInterval(1000);
    connect(tick, &QTimer::timeout, this, &MainWindow::refreshStatus);
    tick->start();
    refreshStatus();
}

void MainWindow::refreshStatus()
{
    const QDateTime engineTime = QDateTime::fromMSecsSinceEpoch(m_session.now(), Qt::UTC);
    m_status->setText(tr("Engine time: %1").arg(engineTime.toString(Qt::ISODate)));
}

} // namespace inflight::ui
