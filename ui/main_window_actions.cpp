// The window's actions: each opens its dialog or acts on the selection, and shows what the engine
// answered where the user acted.

#include "ui/main_window.h"

#include "session/session.h"
#include "ui/dialogs/generate_dialog.h"
#include "ui/dialogs/purge_dialog.h"
#include "ui/dialogs/queue_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/redrive_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "ui/models/queue_table_model.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/notice_bar.h"

#include <QDockWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

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
        m_queueDock->model()->refresh();
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
    QString text = tr("Delete %1 and every message in it? Its name cannot be used again for 60 "
                      "seconds.")
                       .arg(queue);
    // Another queue's redrive policy names it: say so before it goes.
    if (auto view = m_session.broker().queueView(toStdString(queue));
        view && !view->deadLetterSources.empty() && !view->isBuiltInDeadLetterQueue) {
        QStringList sources;
        for (const std::string& source : view->deadLetterSources)
            sources << toQString(source);
        text += QStringLiteral("\n\n")
            + tr("It is the dead-letter queue of %1: their redrive policies still name it, and a "
                 "message that fails there too often has nowhere to go.")
                  .arg(sources.join(QStringLiteral(", ")));
    }
    if (!confirm(QStringLiteral("confirmDeleteQueue"), tr("Delete queue"), text))
        return;
    auto status = m_session.broker().deleteQueue(toStdString(queue), windowOrigin());
    if (!status) {
        queueNotice()->showError(describeError(status.error()));
        return;
    }
    queueNotice()->showInfo(tr("Deleted %1.").arg(queue));
    m_queueDock->model()->refresh();
    if (m_queueDock->model()->rowOf(m_currentQueue) < 0) {
        m_currentQueue.clear();
        m_queueDock->selectFirst();
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
        queueNotice()->showError(describeError(status.error()));
        return;
    }
    switch (target) {
    case engine::PurgeTarget::Normal: queueNotice()->showInfo(tr("Purged %1.").arg(queue)); break;
    case engine::PurgeTarget::DeadLetter:
        queueNotice()->showInfo(
            tr("Purged the dead-letter queue of %1 (%2).").arg(queue, deadLetter));
        break;
    case engine::PurgeTarget::Both:
        queueNotice()->showInfo(
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
        messageNotice()->showInfo(tr("Sent %1 (generated) to %2.")
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
