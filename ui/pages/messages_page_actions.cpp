// The Messages page's actions: each acts on the selection through the source and shows what the
// place answered where the user acted (the page's notice bar, or the status bar).

#include "ui/pages/messages_page.h"

#include "ui/dialogs/send_dialog.h"
#include "ui/dialogs/visibility_dialog.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/notice_bar.h"

#include <QApplication>
#include <QClipboard>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QPointer>
#include <QTableView>

namespace inflight::ui {

QString MessagesPage::messageJson(const engine::MessageView& m)
{
    // As a ReceiveMessage answer gives it (AWS JSON), with every system attribute the window
    // knows: for a bug report, a test fixture, or a replay.
    QJsonObject system;
    system[QStringLiteral("ApproximateReceiveCount")] = QString::number(m.receiveCount);
    system[QStringLiteral("SentTimestamp")] = QString::number(m.sentAt);
    if (m.firstReceivedAt > 0)
        system[QStringLiteral("ApproximateFirstReceiveTimestamp")]
            = QString::number(m.firstReceivedAt);
    if (!m.groupId.empty())
        system[QStringLiteral("MessageGroupId")] = toQString(m.groupId);
    if (!m.deduplicationId.empty())
        system[QStringLiteral("MessageDeduplicationId")] = toQString(m.deduplicationId);
    if (!m.sequenceNumber.empty())
        system[QStringLiteral("SequenceNumber")] = toQString(m.sequenceNumber);
    if (!m.deadLetterSourceArn.empty())
        system[QStringLiteral("DeadLetterQueueSourceArn")] = toQString(m.deadLetterSourceArn);
    for (const auto& [name, value] : m.systemAttributes)
        system[toQString(name)] = toQString(value.stringValue);
    const auto attributes = [](const engine::MessageAttributes& map) {
        QJsonObject out;
        for (const auto& [name, value] : map) {
            QJsonObject v{{QStringLiteral("DataType"), toQString(value.dataType)}};
            if (value.isBinary())
                v[QStringLiteral("BinaryValue")]
                    = QString::fromLatin1(QByteArray::fromStdString(value.binaryValue).toBase64());
            else
                v[QStringLiteral("StringValue")] = toQString(value.stringValue);
            out[toQString(name)] = v;
        }
        return out;
    };
    QJsonObject json{{QStringLiteral("MessageId"), toQString(m.messageId)},
                     {QStringLiteral("Body"), toQString(m.body)},
                     {QStringLiteral("Attributes"), system}};
    if (!m.receiptHandle.empty())
        json[QStringLiteral("ReceiptHandle")] = toQString(m.receiptHandle);
    if (!m.attributes.empty())
        json[QStringLiteral("MessageAttributes")] = attributes(m.attributes);
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
}

std::vector<InFlightMessage> MessagesPage::selectedInFlight(int* skipped) const
{
    std::vector<InFlightMessage> messages;
    int notInFlight = 0;
    const bool peek = m_source.has(QueueSource::Feature::PeekEveryMessage);
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows()) {
        const int row = m_filter->mapToSource(index).row();
        if (row < 0)
            continue;
        if (!peek) { // the receipts the window holds
            const MessageTableModel::Row& r = m_messages->row(row);
            const auto held = m_heldReceipts.find(r.messageId);
            if (held == m_heldReceipts.end() || r.state != engine::MessageState::InFlight) {
                ++notInFlight;
                continue;
            }
            messages.push_back(InFlightMessage{r.messageId, held.value(), r.deadline});
            continue;
        }
        // The receipt comes from peek: acting on a message never needs a receive of its own.
        auto view = m_source.peek(m_queue, m_messages->messageKey(row));
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

void MessagesPage::reportOutcome(const ActionOutcome& outcome, const QString& done, int skipped)
{
    QString text = outcome.succeeded > 0 ? done : QString();
    if (skipped > 0)
        text += (text.isEmpty() ? QString() : QStringLiteral(" "))
            + (skipped == 1 ? tr("1 selected message not in flight: skipped.")
                            : tr("%1 selected messages not in flight: skipped.").arg(skipped));
    if (!outcome.ok()) {
        m_notice->showError((text.isEmpty() ? QString() : text + QLatin1Char('\n'))
                            + outcome.errors.join(QLatin1Char('\n')));
        return;
    }
    if (text.isEmpty())
        m_notice->clear();
    else
        m_notice->showInfo(text);
}

void MessagesPage::extend30()
{
    changeSelected(VisibilityChange::extendBy(30));
}

void MessagesPage::release()
{
    changeSelected(VisibilityChange::release());
}

QCoro::Task<> MessagesPage::changeSelected(VisibilityChange change)
{
    QPointer<MessagesPage> self(this);
    int skipped = 0;
    const std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    const QString queue = m_queue;
    ActionOutcome outcome;
    std::vector<engine::MessageView> changed;
    for (const InFlightMessage& message : messages) {
        const engine::Millis asked = m_source.now();
        const std::int64_t timeout = change.timeoutFor(message.visibleAt, asked);
        const engine::Status status
            = co_await m_source.changeVisibility(queue, message.receiptHandle, timeout);
        if (!self)
            co_return;
        if (!status) {
            outcome.fail(message.messageId, describeError(status.error()));
            continue;
        }
        ++outcome.succeeded;
        engine::MessageView view;
        view.messageId = toStdString(message.messageId);
        view.receiptHandle = message.receiptHandle;
        view.visibleAt = asked + timeout * engine::kSecond;
        view.receivedAt = asked;
        view.state
            = timeout == 0 ? engine::MessageState::Available : engine::MessageState::InFlight;
        changed.push_back(std::move(view));
    }
    if (queue != m_queue)
        co_return;
    // A place without events: the rows the window holds change here (with events they follow).
    if (!m_source.has(QueueSource::Feature::Events))
        for (const engine::MessageView& view : changed) {
            if (view.state == engine::MessageState::InFlight) {
                const int row = m_messages->rowOfMessageId(toQString(view.messageId));
                if (row < 0)
                    continue;
                engine::MessageView again = view;
                const MessageTableModel::Row& r = m_messages->row(row);
                again.body = r.bodyPreview.toStdString();
                again.receiveCount = r.receiveCount;
                again.sentAt = r.sentAt;
                m_messages->hold({again});
            } else { // released: no longer held
                m_heldReceipts.remove(toQString(view.messageId));
                m_messages->forget({toQString(view.messageId)});
            }
        }
    if (change.mode == VisibilityChange::Mode::ExtendBy)
        reportOutcome(
            outcome,
            tr("Extended %1 by %2 s.").arg(messagesText(outcome.succeeded)).arg(change.seconds),
            skipped);
    else if (change.seconds == 0)
        reportOutcome(outcome,
                      tr("Released %1: visible again now.").arg(messagesText(outcome.succeeded)),
                      skipped);
    else
        reportOutcome(outcome,
                      tr("Changed the visibility of %1.").arg(messagesText(outcome.succeeded)),
                      skipped);
}

void MessagesPage::changeVisibility()
{
    int skipped = 0;
    std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    if (messages.empty()) {
        reportOutcome({}, QString(), skipped);
        return;
    }
    session::Session* session = m_source.localSession();
    if (!session) { // the dialog sets an exact timeout: 30 s here, as its default
        changeSelected(VisibilityChange::setTo(30));
        return;
    }
    auto* dialog = new VisibilityDialog(*session, m_queue, std::move(messages),
                                        VisibilityChange::setTo(30), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &VisibilityDialog::applied, this, [this, skipped](const QString& summary) {
        ActionOutcome done;
        done.succeeded = 1;
        reportOutcome(done, summary, skipped);
    });
    dialog->open();
}

void MessagesPage::deleteSelected()
{
    deleteSelectedTask();
}

QCoro::Task<> MessagesPage::deleteSelectedTask()
{
    QPointer<MessagesPage> self(this);
    int skipped = 0;
    const std::vector<InFlightMessage> messages = selectedInFlight(&skipped);
    const QString queue = m_queue;
    ActionOutcome outcome;
    QStringList deleted;
    for (const InFlightMessage& message : messages) {
        const engine::Status status = co_await m_source.deleteMessage(queue, message.receiptHandle);
        if (!self)
            co_return;
        if (status) {
            ++outcome.succeeded;
            deleted << message.messageId;
        } else {
            outcome.fail(message.messageId, describeError(status.error()));
        }
    }
    if (queue != m_queue)
        co_return;
    if (!m_source.has(QueueSource::Feature::Events)) {
        for (const QString& id : deleted)
            m_heldReceipts.remove(id);
        m_messages->forget(deleted);
    }
    reportOutcome(outcome, tr("Deleted %1.").arg(messagesText(outcome.succeeded)), skipped);
}

void MessagesPage::receiveOne()
{
    receiveOneTask();
}

QCoro::Task<> MessagesPage::receiveOneTask()
{
    if (m_queue.isEmpty())
        co_return;
    QPointer<MessagesPage> self(this);
    const QString queue = m_queue;
    // One message, at once (a short poll), with the queue's own visibility timeout.
    const QueueSource::ReceiveAsk ask;
    const auto result = co_await m_source.receive(queue, ask);
    if (!self)
        co_return;
    if (!result) {
        Q_EMIT statusMessage(describeError(result.error()), 10000);
        co_return;
    }
    if (result->empty()) {
        Q_EMIT statusMessage(tr("Receive 1: nothing to receive from %1. %2")
                                 .arg(queue, m_source.whyEmpty(queue, ask)),
                             10000);
        co_return;
    }
    const engine::MessageView& message = result->front();
    const QString id = toQString(message.messageId);
    Q_EMIT statusMessage(
        tr("Received %1 from %2 (receive #%3).").arg(id.left(8), queue).arg(message.receiveCount),
        10000);
    if (queue != m_queue)
        co_return;
    if (!m_source.has(QueueSource::Feature::PeekEveryMessage)) {
        m_heldReceipts.insert(id, message.receiptHandle);
        m_messages->hold(*result);
    }
    selectMessages({id});
}

void MessagesPage::showMenu(const QPoint& at)
{
    QMenu menu(m_view);
    menu.setObjectName(QStringLiteral("messageContextMenu"));
    menu.addActions(m_view->actions());
    const QModelIndex index = m_view->indexAt(at);
    const int row = index.isValid() ? m_filter->mapToSource(index).row() : -1;
    std::optional<engine::MessageView> message;
    if (row >= 0 && row < m_messages->rowCount()
        && m_source.has(QueueSource::Feature::PeekEveryMessage))
        message = m_source.peek(m_queue, m_messages->row(row).key);
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
        copy(QStringLiteral("copyJsonAction"), tr("Copy as &JSON"), messageJson(*message));
    }
    if (message && m_source.localSession()) {
        menu.addSeparator();
        QAction* again = menu.addAction(tr("Send a &copy…"));
        again->setObjectName(QStringLiteral("sendCopyAction"));
        connect(again, &QAction::triggered, this,
                [this, m = *message] { resubmit(m, m_queue, false); });
        QMenu* copyTo = menu.addMenu(tr("Copy &to"));
        copyTo->setObjectName(QStringLiteral("copyToMenu"));
        QMenu* moveTo = menu.addMenu(tr("&Move to"));
        moveTo->setObjectName(QStringLiteral("moveToMenu"));
        const bool held = !message->receiptHandle.empty();
        moveTo->setToolTip(held ? QString()
                                : tr("A move deletes the original with its receipt: receive it "
                                     "first (Receive 1)"));
        moveTo->setEnabled(held);
        for (const QString& name : m_queueNames) {
            if (name == m_queue)
                continue;
            connect(copyTo->addAction(name), &QAction::triggered, this,
                    [this, m = *message, name] { resubmit(m, name, false); });
            connect(moveTo->addAction(name), &QAction::triggered, this,
                    [this, m = *message, name] { resubmit(m, name, true); });
        }
        copyTo->setEnabled(!copyTo->isEmpty());
        moveTo->setEnabled(held && !moveTo->isEmpty());
    }
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

void MessagesPage::resubmit(const engine::MessageView& message, const QString& toQueue, bool move)
{
    session::Session* session = m_source.localSession();
    if (!session)
        return;
    auto* dialog = new SendDialog(*session, toQueue, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->prefill(message);
    dialog->setWindowTitle(move ? tr("Move to %1").arg(toQueue)
                                : tr("Send a copy to %1").arg(toQueue));
    const QString from = m_queue;
    const std::string receipt = message.receiptHandle;
    const QString id = toQString(message.messageId);
    connect(dialog, &SendDialog::sent, this,
            [this, dialog, move, from, receipt, id, toQueue](const QString& copyId) {
                if (!move) {
                    Q_EMIT statusMessage(
                        tr("Sent %1 to %2, a copy of %3.").arg(copyId.left(8), toQueue, id.left(8)),
                        10000);
                    return;
                }
                dialog->close(); // once: the copy is in, the original goes with its receipt
                deleteMoved(from, receipt, id, toQueue, copyId);
            });
    dialog->open();
}

QCoro::Task<> MessagesPage::deleteMoved(QString from, std::string receipt, QString id,
                                        QString toQueue, QString copyId)
{
    QPointer<MessagesPage> self(this);
    const engine::Status deleted = co_await m_source.deleteMessage(from, receipt);
    if (!self)
        co_return;
    Q_EMIT statusMessage(
        deleted
            ? tr("Moved %1 from %2 to %3 (now %4).").arg(id.left(8), from, toQueue, copyId.left(8))
            : tr("Sent the copy %1 to %2, but %3 stays in %4: %5")
                  .arg(copyId.left(8), toQueue, id.left(8), from, describeError(deleted.error())),
        10000);
}

} // namespace inflight::ui
