// The window's actions: each opens its dialog or acts on the selection, and shows what the engine
// answered where the user acted.

#include "ui/main_window.h"

#include "session/pending_receive.h"
#include "session/session.h"
#include "ui/dialogs/generate_dialog.h"
#include "ui/dialogs/purge_dialog.h"
#include "ui/dialogs/queue_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/redrive_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "ui/dialogs/visibility_dialog.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/notice_bar.h"

#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>

namespace inflight::ui {

namespace {

// Non-modal dialogs are shown once per queue; a new queue gets a new dialog.
template <class Dialog>
Dialog* showDialog(QPointer<Dialog>& dialog)
{
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

} // namespace

bool MainWindow::confirm(const QString& objectName, const QString& title, const QString& text)
{
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Yes | QMessageBox::Cancel,
                    this);
    box.setObjectName(objectName);
    box.setDefaultButton(QMessageBox::Cancel);
    box.button(QMessageBox::Yes)->setObjectName(QStringLiteral("yesButton"));
    box.button(QMessageBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    return box.exec() == QMessageBox::Yes;
}

void MainWindow::newQueue()
{
    auto* dialog = new QueueDialog(m_session, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString name = dialog->queueName();
        m_queues->refresh();
        selectQueue(name);
        statusBar()->showMessage(tr("Created queue %1.").arg(name), 5000);
    });
    dialog->open();
}

void MainWindow::editQueue()
{
    if (m_currentQueue.isEmpty())
        return;
    auto* dialog = new QueueDialog(m_session, m_currentQueue, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this] {
        statusBar()->showMessage(tr("Changed the attributes of %1.").arg(m_currentQueue), 5000);
    });
    dialog->open();
}

void MainWindow::deleteQueue()
{
    const QString queue = m_currentQueue;
    if (queue.isEmpty())
        return;
    if (!confirm(QStringLiteral("confirmDeleteQueue"), tr("Delete queue"),
                 tr("Delete %1 and every message in it? Its name cannot be used again for 60 "
                    "seconds.")
                     .arg(queue)))
        return;
    auto status = m_session.broker().deleteQueue(toStdString(queue), windowOrigin());
    if (!status) {
        m_queueNotice->showError(describeError(status.error()));
        return;
    }
    m_queueNotice->showInfo(tr("Deleted %1.").arg(queue));
    m_queues->refresh();
    if (m_queues->rowOf(m_currentQueue) < 0) {
        m_currentQueue.clear();
        if (m_queueProxy->rowCount() > 0)
            m_queueView->setCurrentIndex(m_queueProxy->index(0, 0));
        else
            onQueueSelected();
    }
}

void MainWindow::purgeQueue()
{
    const QString queue = m_currentQueue;
    if (queue.isEmpty())
        return;
    engine::Broker& broker = m_session.broker();
    auto view = broker.queueView(toStdString(queue));
    const auto stored = [&broker](const std::string& name) -> qint64 {
        auto stats = broker.queueStats(name);
        return stats ? stats->available + stats->inFlight + stats->delayed : 0;
    };
    // An OCI queue (not its built-in DLQ) chooses what to purge; SQS purges the queue itself.
    const bool oci = view && view->kind == engine::QueueKind::Oci && !view->isBuiltInDeadLetterQueue
        && !view->deadLetterTarget.empty();
    const QString deadLetter = oci ? toQString(view->deadLetterTarget) : QString();
    engine::PurgeTarget target = engine::PurgeTarget::Normal;
    if (oci) {
        PurgeDialog dialog(queue, deadLetter, stored(view->name), stored(view->deadLetterTarget),
                           this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        target = dialog.target();
    } else if (!confirm(QStringLiteral("confirmPurgeQueue"), tr("Purge queue"),
                        tr("Remove every message of %1 — available, delayed and in flight?")
                            .arg(queue))) {
        return;
    }
    auto status = broker.purgeQueue(toStdString(queue), target, windowOrigin());
    if (!status) {
        m_queueNotice->showError(describeError(status.error()));
        return;
    }
    switch (target) {
    case engine::PurgeTarget::Normal: m_queueNotice->showInfo(tr("Purged %1.").arg(queue)); break;
    case engine::PurgeTarget::DeadLetter:
        m_queueNotice->showInfo(
            tr("Purged the dead-letter queue of %1 (%2).").arg(queue, deadLetter));
        break;
    case engine::PurgeTarget::Both:
        m_queueNotice->showInfo(
            tr("Purged %1 and its dead-letter queue %2.").arg(queue, deadLetter));
        break;
    }
}

void MainWindow::sendMessage()
{
    if (m_currentQueue.isEmpty())
        return;
    auto* dialog = new SendDialog(m_session, m_currentQueue, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SendDialog::sent, this,
            [this](const QString& id) { statusBar()->showMessage(tr("Sent %1.").arg(id), 5000); });
    dialog->open();
}

void MainWindow::sendGenerated()
{
    if (m_currentQueue.isEmpty())
        return;
    auto* dialog = new GenerateDialog(m_session, m_currentQueue, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_messageNotice->showInfo(tr("Sent %1 (generated) to %2.")
                                      .arg(messagesText(dialog->sentCount()), m_currentQueue));
    });
    dialog->open();
}

void MainWindow::receive()
{
    if (m_currentQueue.isEmpty())
        return;
    if (m_receiveDialog && m_receiveDialog->queue() == m_currentQueue) {
        m_receiveDock->show();
        m_receiveDock->raise();
        showDialog(m_receiveDialog);
        return;
    }
    if (m_receiveDialog)
        m_receiveDialog->close(); // cancels its wait, if any
    if (m_receiveDialog)
        m_receiveDialog->deleteLater();
    m_receiveDialog = new ReceiveDialog(m_session, m_currentQueue, this);
    connect(m_receiveDialog, &ReceiveDialog::waitingChanged, this, &MainWindow::showWaiting);
    connect(m_receiveDialog, &ReceiveDialog::receiveFinished, this, [this](const QStringList& ids) {
        if (!ids.isEmpty() && m_receiveDialog && m_receiveDialog->queue() == m_currentQueue)
            selectMessages(ids);
    });
    dockReceive(m_receiveDialog);
    showDialog(m_receiveDialog);
}

void MainWindow::dockReceive(ReceiveDialog* dialog)
{
    // A panel below the table, not a window over it: the room keeps watching the countdowns
    // while a receive waits. It can be moved, floated or closed (closing cancels a wait).
    if (!m_receiveDock) {
        m_receiveDock = new QDockWidget(this);
        m_receiveDock->setObjectName(QStringLiteral("receiveDock"));
        m_receiveDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                                   | QDockWidget::DockWidgetClosable);
        addDockWidget(Qt::BottomDockWidgetArea, m_receiveDock);
        connect(m_receiveDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (!visible && m_receiveDock->isHidden() && m_receiveDialog
                && m_receiveDialog->isVisible())
                m_receiveDialog->close(); // closed (not just behind another tab): the wait ends
        });
    }
    dialog->setWindowFlags(Qt::Widget);
    m_receiveDock->setWidget(dialog);
    m_receiveDock->setWindowTitle(tr("Receive from %1").arg(dialog->queue()));
    connect(dialog, &QDialog::finished, m_receiveDock, &QWidget::hide);
    const bool shown = m_receiveDock->isVisible();
    m_receiveDock->show();
    if (!shown && !m_receiveDock->isFloating()) // the table keeps most of the height
        resizeDocks({m_receiveDock},
                    {std::max(dialog->minimumSizeHint().height(), height() * 35 / 100)},
                    Qt::Vertical);
}

void MainWindow::showMessageMenu(const QPoint& at)
{
    QMenu menu(m_messageView);
    menu.setObjectName(QStringLiteral("messageContextMenu"));
    menu.addActions(m_messageView->actions());
    const QModelIndex index = m_messageView->indexAt(at);
    const int row = index.isValid() ? m_messageFilter->mapToSource(index).row() : -1;
    std::optional<engine::MessageView> message;
    if (row >= 0 && row < m_messages->rowCount())
        if (auto view
            = m_session.broker().peekMessage(toStdString(m_currentQueue), m_messages->row(row).key))
            message = *view;
    if (message) {
        menu.addSeparator();
        const auto copy = [&menu](const QString& name, const QString& text, const QString& value) {
            QAction* action = menu.addAction(text);
            action->setObjectName(name);
            action->setEnabled(!value.isEmpty());
            QObject::connect(action, &QAction::triggered, &menu,
                             [value] { QApplication::clipboard()->setText(value); });
        };
        copy(QStringLiteral("copyIdAction"), tr("Copy &id"), toQString(message->messageId));
        copy(QStringLiteral("copyBodyAction"), tr("Copy &body"), toQString(message->body));
        copy(QStringLiteral("copyReceiptAction"), tr("Copy &receipt"),
             toQString(message->receiptHandle));
        menu.addSeparator();
        QAction* again = menu.addAction(tr("Send a &copy…"));
        again->setObjectName(QStringLiteral("sendCopyAction"));
        connect(again, &QAction::triggered, this,
                [this, m = *message] { resubmit(m, m_currentQueue, false); });
        QMenu* copyTo = menu.addMenu(tr("Copy &to"));
        copyTo->setObjectName(QStringLiteral("copyToMenu"));
        QMenu* moveTo = menu.addMenu(tr("&Move to"));
        moveTo->setObjectName(QStringLiteral("moveToMenu"));
        const bool held = !message->receiptHandle.empty();
        moveTo->setToolTip(held ? QString()
                                : tr("A move deletes the original with its receipt: receive it "
                                     "first (Receive 1)"));
        moveTo->setEnabled(held);
        for (int q = 0; q < m_queues->rowCount(); ++q) {
            const QString name = m_queues->queueName(q);
            if (name == m_currentQueue)
                continue;
            connect(copyTo->addAction(name), &QAction::triggered, this,
                    [this, m = *message, name] { resubmit(m, name, false); });
            connect(moveTo->addAction(name), &QAction::triggered, this,
                    [this, m = *message, name] { resubmit(m, name, true); });
        }
        copyTo->setEnabled(!copyTo->isEmpty());
        moveTo->setEnabled(held && !moveTo->isEmpty());
    }
    menu.exec(m_messageView->viewport()->mapToGlobal(at));
}

void MainWindow::resubmit(const engine::MessageView& message, const QString& toQueue, bool move)
{
    auto* dialog = new SendDialog(m_session, toQueue, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->prefill(message);
    dialog->setWindowTitle(move ? tr("Move to %1").arg(toQueue)
                                : tr("Send a copy to %1").arg(toQueue));
    const QString from = m_currentQueue;
    const std::string receipt = message.receiptHandle;
    const QString id = toQString(message.messageId);
    connect(dialog, &SendDialog::sent, this,
            [this, dialog, move, from, receipt, id, toQueue](const QString& copyId) {
                if (!move) {
                    statusBar()->showMessage(
                        tr("Sent %1 to %2, a copy of %3.").arg(copyId.left(8), toQueue, id.left(8)),
                        10000);
                    return;
                }
                // The copy is in; the original goes with its receipt (once: the dialog closes).
                auto deleted
                    = m_session.broker().deleteMessage(toStdString(from), receipt, windowOrigin());
                statusBar()->showMessage(deleted
                                             ? tr("Moved %1 from %2 to %3 (now %4).")
                                                   .arg(id.left(8), from, toQueue, copyId.left(8))
                                             : tr("Sent the copy %1 to %2, but %3 stays in %4: %5")
                                                   .arg(copyId.left(8), toQueue, id.left(8), from,
                                                        describeError(deleted.error())),
                                         10000);
                dialog->close();
            });
    dialog->open();
}

void MainWindow::receiveOne()
{
    if (m_currentQueue.isEmpty())
        return;
    engine::ReceiveRequest request;
    request.queue = toStdString(m_currentQueue);
    request.maxMessages = 1;
    request.waitTimeSeconds = 0;
    request.origin = windowOrigin();
    const engine::ReceiveRequest asked = request;
    session::PendingReceive* receive = m_session.receive(std::move(request));
    const QString queue = m_currentQueue;
    const auto done = [this, receive, asked, queue] {
        receive->deleteLater();
        const auto& result = receive->result();
        if (!result) {
            statusBar()->showMessage(describeError(result.error()), 10000);
            return;
        }
        if (result->messages.empty()) {
            QString why;
            if (const auto explained = m_session.broker().explainEmptyReceive(asked))
                why = toQString(explained->text);
            statusBar()->showMessage(
                tr("Receive 1: nothing to receive from %1. %2").arg(queue, why), 10000);
            return;
        }
        const QString id = toQString(result->messages.front().messageId);
        statusBar()->showMessage(tr("Received %1 from %2 (receive #%3).")
                                     .arg(id.left(8), queue)
                                     .arg(result->messages.front().receiveCount),
                                 10000);
        if (queue == m_currentQueue)
            selectMessages({id});
    };
    // finished() comes from the event loop even for a short poll answered at once.
    connect(receive, &session::PendingReceive::finished, this, done);
}

std::vector<InFlightMessage> MainWindow::selectedInFlight(int* skipped) const
{
    std::vector<InFlightMessage> messages;
    int notInFlight = 0;
    const std::string queue = toStdString(m_currentQueue);
    for (const QModelIndex& index : m_messageView->selectionModel()->selectedRows()) {
        const int row = m_messageFilter->mapToSource(index).row();
        if (row < 0)
            continue;
        // The receipt comes from peek: acting on a message never needs a receive of its own.
        auto view = m_session.broker().peekMessage(queue, m_messages->messageKey(row));
        if (!view || view->state != engine::MessageState::InFlight) {
            ++notInFlight;
            continue;
        }
        messages.push_back(
            InFlightMessage{toQString(view->messageId), view->receiptHandle, view->visibleAt});
    }
    if (skipped)
        *skipped = notInFlight;
    return messages;
}

void MainWindow::reportOutcome(const ActionOutcome& outcome, const QString& done, int skipped)
{
    QString text = outcome.succeeded > 0 ? done : QString();
    if (skipped > 0)
        text += (text.isEmpty() ? QString() : QStringLiteral(" "))
            + (skipped == 1 ? tr("1 selected message not in flight: skipped.")
                            : tr("%1 selected messages not in flight: skipped.").arg(skipped));
    if (!outcome.ok()) {
        m_messageNotice->showError((text.isEmpty() ? QString() : text + QLatin1Char('\n'))
                                   + outcome.errors.join(QLatin1Char('\n')));
        return;
    }
    if (text.isEmpty())
        m_messageNotice->clear();
    else
        m_messageNotice->showInfo(text);
}

void MainWindow::extend30()
{
    int skipped = 0;
    const std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    const ActionOutcome outcome
        = ui::changeVisibility(m_session, m_currentQueue, messages, VisibilityChange::extendBy(30));
    reportOutcome(outcome, tr("Extended %1 by 30 s.").arg(messagesText(outcome.succeeded)),
                  skipped);
}

void MainWindow::release()
{
    int skipped = 0;
    const std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    const ActionOutcome outcome
        = ui::changeVisibility(m_session, m_currentQueue, messages, VisibilityChange::release());
    reportOutcome(outcome,
                  tr("Released %1: visible again now.").arg(messagesText(outcome.succeeded)),
                  skipped);
}

void MainWindow::changeVisibility()
{
    int skipped = 0;
    std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    if (messages.empty()) {
        reportOutcome({}, QString(), skipped);
        return;
    }
    auto* dialog = new VisibilityDialog(m_session, m_currentQueue, std::move(messages),
                                        VisibilityChange::setTo(30), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &VisibilityDialog::applied, this, [this, skipped](const QString& summary) {
        ActionOutcome done;
        done.succeeded = 1;
        reportOutcome(done, summary, skipped);
    });
    dialog->open();
}

void MainWindow::deleteSelectedMessages()
{
    int skipped = 0;
    const std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    const ActionOutcome outcome = deleteMessages(m_session, m_currentQueue, messages);
    reportOutcome(outcome, tr("Deleted %1.").arg(messagesText(outcome.succeeded)), skipped);
}

void MainWindow::redrive()
{
    if (m_currentQueue.isEmpty())
        return;
    if (m_redriveDialog && m_redriveDialog->sourceQueue() == m_currentQueue) {
        showDialog(m_redriveDialog);
        return;
    }
    if (m_redriveDialog)
        m_redriveDialog->deleteLater();
    m_redriveDialog = new RedriveDialog(m_session, m_currentQueue, this);
    connect(m_redriveDialog, &RedriveDialog::notice, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    showDialog(m_redriveDialog);
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About Inflight"),
        tr("<p><b>Inflight</b> %1</p><p>A desktop workbench for Amazon SQS and OCI Queue "
           "semantics: every message's state, live, and every action one click away.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

} // namespace inflight::ui
