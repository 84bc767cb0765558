#include "ui/dialogs/redrive_dialog.h"

#include "engine/queue_config.h"
#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/widgets/engine_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

enum TaskColumn { StatusColumn, MovedColumn, DestinationColumn, RateColumn, StartedColumn };

QString queueNameOfArn(const std::string& arn)
{
    const auto name = engine::queueNameFromArn(arn);
    return name ? toQString(*name) : toQString(arn);
}

} // namespace

RedriveDialog::RedriveDialog(session::Session& session, const QString& deadLetterQueue,
                             QWidget* parent)
    : QDialog(parent), m_session(session), m_source(deadLetterQueue)
{
    setObjectName(QStringLiteral("redriveDialog"));
    setWindowTitle(tr("Redrive %1").arg(deadLetterQueue));
    setModal(false);

    QStringList sources;
    if (auto view = m_session.broker().queueView(toStdString(deadLetterQueue)))
        for (const std::string& source : view->deadLetterSources)
            sources << toQString(source);

    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Moves the messages available in %1 now, at the chosen rate in "
                                "engine time. Moved messages start over: new id, receive count "
                                "0.")
                                 .arg(deadLetterQueue),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* target = new QGroupBox(tr("Destination"), this);
    auto* targetLayout = new QFormLayout(target);
    m_origin = new QRadioButton(sources.isEmpty() ? tr("&Back to where each message came from")
                                                  : tr("&Back to where each message came from (%1)")
                                                        .arg(sources.join(QStringLiteral(", "))),
                                target);
    m_origin->setObjectName(QStringLiteral("originRadio"));
    m_origin->setChecked(true);
    m_toQueue = new QRadioButton(tr("To &queue:"), target);
    m_toQueue->setObjectName(QStringLiteral("queueRadio"));
    m_destination = new QComboBox(target);
    m_destination->setObjectName(QStringLiteral("destinationCombo"));
    for (const engine::QueueView& queue : m_session.broker().queues()) {
        const QString name = toQString(queue.name);
        if (name != deadLetterQueue && !queue.isBuiltInDeadLetterQueue)
            m_destination->addItem(name);
    }
    m_destination->setEnabled(false);
    targetLayout->addRow(m_origin);
    targetLayout->addRow(m_toQueue, m_destination);
    layout->addWidget(target);

    auto* rateRow = new QHBoxLayout;
    m_limitRate = new QCheckBox(tr("&Limit the rate to"), this);
    m_limitRate->setObjectName(QStringLiteral("rateCheck"));
    m_limitRate->setChecked(true);
    m_rate = new QSpinBox(this);
    m_rate->setObjectName(QStringLiteral("rateSpin"));
    m_rate->setRange(1, 500);
    m_rate->setValue(5);
    m_rate->setSuffix(tr(" messages/s"));
    rateRow->addWidget(m_limitRate);
    rateRow->addWidget(m_rate);
    rateRow->addStretch();
    auto* rateNote = new QLabel(tr("(unlimited: 500/s)"), this);
    rateNote->setForegroundRole(QPalette::PlaceholderText);
    rateRow->addWidget(rateNote);
    layout->addLayout(rateRow);

    auto* progressRow = new QHBoxLayout;
    m_progressLabel = new QLabel(this);
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("moveProgress"));
    m_progress->setFormat(tr("%v of %m"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    progressRow->addWidget(m_progressLabel, 1);
    progressRow->addWidget(m_progress, 1);
    layout->addLayout(progressRow);

    m_tasks = new QTreeWidget(this);
    m_tasks->setObjectName(QStringLiteral("tasksTree"));
    m_tasks->setRootIsDecorated(false);
    m_tasks->setHeaderLabels(
        {tr("Status"), tr("Moved"), tr("Destination"), tr("Rate"), tr("Started")});
    m_tasks->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tasks->setMinimumHeight(110);
    layout->addWidget(m_tasks, 1);

    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("&Start move task"), QDialogButtonBox::ActionRole);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_cancel = buttons->addButton(tr("&Cancel task"), QDialogButtonBox::ActionRole);
    m_cancel->setObjectName(QStringLiteral("cancelTaskButton"));
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    layout->addWidget(buttons);

    connect(m_toQueue, &QRadioButton::toggled, m_destination, &QComboBox::setEnabled);
    connect(m_limitRate, &QCheckBox::toggled, m_rate, &QSpinBox::setEnabled);
    connect(m_start, &QPushButton::clicked, this, &RedriveDialog::startTask);
    connect(m_cancel, &QPushButton::clicked, this, &RedriveDialog::cancelTask);
    connect(close, &QPushButton::clicked, this, &RedriveDialog::reject);
    connect(&m_session, &session::Session::eventsReady, this, &RedriveDialog::onEvents);
    // A task that runs out of available messages completes without an event of its own; while
    // one runs, look again now and then (presentation only).
    auto* poll = new QTimer(this);
    poll->setInterval(500);
    connect(poll, &QTimer::timeout, this, [this] {
        if (hasRunningTask())
            refresh();
    });
    poll->start();
    refresh();
    resize(620, 420);
}

void RedriveDialog::setDestination(const QString& queue)
{
    if (queue.isEmpty()) {
        m_origin->setChecked(true);
        return;
    }
    m_toQueue->setChecked(true);
    m_destination->setCurrentText(queue);
}

void RedriveDialog::setRate(int messagesPerSecond)
{
    m_limitRate->setChecked(messagesPerSecond > 0);
    if (messagesPerSecond > 0)
        m_rate->setValue(messagesPerSecond);
}

void RedriveDialog::startTask()
{
    m_error->clearError();
    engine::Broker& broker = m_session.broker();
    engine::StartMoveTaskRequest request{.sourceArn = broker.arnForName(toStdString(m_source)),
                                         .origin = windowOrigin()};
    if (m_toQueue->isChecked())
        request.destinationArn = broker.arnForName(toStdString(m_destination->currentText()));
    if (m_limitRate->isChecked())
        request.maxMessagesPerSecond = m_rate->value();
    auto started = broker.startMessageMoveTask(request);
    if (!started) {
        m_error->showError(describeError(started.error()));
        return;
    }
    // Moves happen at engine deadlines; let the session arm its timer for the first one.
    m_session.advanceNow();
    Q_EMIT notice(tr("Started moving messages out of %1.").arg(m_source));
    refresh();
}

void RedriveDialog::cancelTask()
{
    if (m_runningHandle.empty())
        return;
    m_error->clearError();
    auto cancelled = m_session.broker().cancelMessageMoveTask(m_runningHandle, windowOrigin());
    if (!cancelled) {
        m_error->showError(describeError(cancelled.error()));
        return;
    }
    Q_EMIT notice(tr("Cancelled the move task after %1.").arg(messagesText(*cancelled)));
    refresh();
}

void RedriveDialog::refresh()
{
    engine::Broker& broker = m_session.broker();
    auto tasks = broker.listMessageMoveTasks(broker.arnForName(toStdString(m_source)), 10);
    m_tasks->clear();
    m_runningHandle.clear();
    if (!tasks) {
        m_error->showError(describeError(tasks.error()));
        tasks = std::vector<engine::MoveTaskInfo>{};
    }
    for (const engine::MoveTaskInfo& task : *tasks) {
        auto* item = new QTreeWidgetItem(m_tasks);
        item->setText(StatusColumn, toQString(engine::moveTaskStatusName(task.status)));
        item->setText(MovedColumn, tr("%1 of %2").arg(task.moved).arg(task.toMove));
        item->setText(DestinationColumn,
                      task.destinationArn.empty() ? tr("origin")
                                                  : queueNameOfArn(task.destinationArn));
        item->setText(RateColumn,
                      task.maxMessagesPerSecond ? tr("%1/s").arg(*task.maxMessagesPerSecond)
                                                : tr("default"));
        item->setText(StartedColumn, formatEngineTime(task.startedAt));
        if (!task.failureReason.empty())
            item->setToolTip(StatusColumn, toQString(task.failureReason));
        if (task.status == engine::MoveTaskStatus::Running && m_runningHandle.empty())
            m_runningHandle = task.taskHandle;
    }
    if (tasks->empty()) {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progressLabel->setText(tr("No move task yet."));
    } else {
        const engine::MoveTaskInfo& newest = tasks->front();
        m_progress->setRange(0, int(std::max<std::int64_t>(newest.toMove, 1)));
        m_progress->setValue(int(newest.moved));
        m_progressLabel->setText(tr("Newest task: %1, %2 of %3 moved.")
                                     .arg(toQString(engine::moveTaskStatusName(newest.status)))
                                     .arg(newest.moved)
                                     .arg(newest.toMove));
    }
    m_cancel->setEnabled(!m_runningHandle.empty());
    m_start->setEnabled(m_runningHandle.empty());
}

void RedriveDialog::onEvents(const std::vector<engine::Event>& events)
{
    const std::string source = toStdString(m_source);
    for (const engine::Event& event : events) {
        if ((event.kind == engine::EventKind::MoveTaskProgress
             || event.kind == engine::EventKind::MovedByTask)
            && event.queue == source) {
            refresh();
            return;
        }
    }
}

QString RedriveDialog::errorText() const
{
    return m_error->errorText();
}

QString RedriveDialog::progressText() const
{
    return m_progressLabel->text();
}

} // namespace inflight::ui
