#include "ui/widgets/message_inspector.h"

#include "ui/widgets/body_view.h"

#include "engine/explain.h"
#include "engine/oci_ids.h"
#include "session/session.h"
#include "ui/models/client_directory.h"
#include "ui/models/message_history.h"
#include "ui/models/timeline_model.h"
#include "ui/widgets/elided_field.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/receipt_delegate.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace inflight::ui {

MessageInspector::MessageInspector(session::Session& session, MessageHistory& history,
                                   QWidget* parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("messageInspector"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // an id is no width
    m_title->setMinimumWidth(1);
    layout->addWidget(m_title);

    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("stateLabel"));
    m_state->setWordWrap(true);
    layout->addWidget(m_state);

    m_why = new QLabel(this);
    m_why->setObjectName(QStringLiteral("explanationLabel"));
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_why->setToolTip(tr("Why the message is where it is, from the engine"));
    layout->addWidget(m_why);

    // The message's fields, each value elided to the panel's width with a copy button: a long
    // deduplication id or receipt never widens the inspector (or squeezes the table).
    m_details = new QWidget(this);
    m_details->setObjectName(QStringLiteral("detailsPanel"));
    m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_detailsForm = new QFormLayout(m_details);
    m_detailsForm->setContentsMargins(0, 0, 0, 0);
    m_detailsForm->setVerticalSpacing(2);
    m_detailsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(m_details);
    m_receipt = new ElidedField(this);
    m_receipt->setObjectName(QStringLiteral("receiptField"));
    m_receipt->setPlaceholder(tr("none: not in flight"));
    m_receipt->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_receipt->setToolTip(tr("The receipt handle of the receive that holds the message"));
    m_detailsForm->addRow(tr("Receipt"), m_receipt);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("inspectorSplitter"));
    splitter->setChildrenCollapsible(false);
    m_tabs = new QTabWidget(splitter);
    m_tabs->setObjectName(QStringLiteral("inspectorTabs"));
    // A 1 MB body shows its start at once, the rest on demand (BodyView).
    m_body = new BodyView(QStringLiteral("bodyView"), true, m_tabs);
    m_body->editor()->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_attributes = new QTreeWidget(m_tabs);
    m_attributes->setObjectName(QStringLiteral("attributesTree"));
    m_attributes->setHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    m_attributes->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_attributes->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tabs->addTab(m_body, tr("&Body"));
    m_tabs->addTab(m_attributes, tr("A&ttributes"));

    auto* timelineBox = new QGroupBox(tr("Timeline"), splitter);
    auto* timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(2, 2, 2, 2);
    m_timeline = new TimelineModel(history, this);
    m_timelineView = new QTableView(timelineBox);
    m_timelineView->setObjectName(QStringLiteral("timelineView"));
    m_timelineView->setModel(m_timeline);
    m_timelineView->verticalHeader()->hide();
    m_timelineView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_timelineView->setWordWrap(false);
    m_timelineView->horizontalHeader()->setStretchLastSection(true);
    m_timelineView->setItemDelegateForColumn(TimelineModel::ReceiptColumn,
                                             new ReceiptDelegate(m_timelineView));
    // Where each step came from matters most after what it was: origin right after the event.
    QHeaderView* header = m_timelineView->horizontalHeader();
    header->moveSection(header->visualIndex(TimelineModel::OriginColumn),
                        header->visualIndex(TimelineModel::KindColumn) + 1);
    m_timelineView->verticalHeader()->setDefaultSectionSize(m_timelineView->fontMetrics().height()
                                                            + 6);
    timelineLayout->addWidget(m_timelineView);
    splitter->addWidget(m_tabs);
    splitter->addWidget(timelineBox);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    connect(m_timeline, &QAbstractItemModel::rowsInserted, m_timelineView, [this] {
        fitTimeline();
        m_timelineView->scrollToBottom();
    });
    connect(m_timeline, &QAbstractItemModel::modelReset, m_timelineView, [this] { fitTimeline(); });
    connect(&m_session, &session::Session::eventsReady, this, &MessageInspector::onEvents);
    clear();
}

QString MessageInspector::prettyBody(const QString& body)
{
    const QString trimmed = body.trimmed();
    if (!trimmed.startsWith(QLatin1Char('{')) && !trimmed.startsWith(QLatin1Char('[')))
        return body;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(body.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return body;
    QString text = QString::fromUtf8(document.toJson(QJsonDocument::Indented));
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

void MessageInspector::setClients(const ClientDirectory* clients)
{
    m_clients = clients;
    m_timeline->setClients(clients);
}

void MessageInspector::setMessage(const QString& queue, engine::MessageKey key,
                                  const QString& messageId)
{
    m_queue = queue;
    m_key = key;
    m_messageId = messageId;
    const auto view = m_session.broker().queueView(toStdString(queue));
    m_oci = view && view->kind == engine::QueueKind::Oci;
    m_timeline->setMessage(queue, messageId);
    refresh();
}

void MessageInspector::clear()
{
    m_queue.clear();
    m_messageId.clear();
    m_key.reset();
    m_timeline->clear();
    m_title->setText(tr("No message selected"));
    m_state->setText(tr("Select a message to see its body, attributes, receipt and timeline. "
                        "Looking is a peek: it changes nothing."));
    setDetails({});
    m_why->clear();
    m_why->hide();
    m_receipt->setText({});
    m_body->clear();
    m_shownBody.clear();
    m_attributes->clear();
}

void MessageInspector::refresh()
{
    if (!m_key)
        return;
    auto view = m_session.broker().peekMessage(toStdString(m_queue), *m_key);
    if (view)
        showView(*view);
    else
        showGone();
}

QString MessageInspector::bodyText() const
{
    return m_body->body();
}

QString MessageInspector::receiptHandle() const
{
    return m_receipt->text();
}

void MessageInspector::showView(const engine::MessageView& view)
{
    m_title->setText(
        m_oci ? tr("id %1 in %2").arg(engine::ociMessageNumber(view.messageId)).arg(m_queue)
              : tr("%1 in %2").arg(toQString(view.messageId), m_queue));
    QString state = messageStateLabel(view.state);
    if (view.state == engine::MessageState::InFlight)
        state = tr("In flight until %1").arg(formatEngineTime(view.visibleAt));
    else if (view.state == engine::MessageState::Delayed)
        state = tr("Delayed until %1").arg(formatEngineTime(view.deliverAt));
    if (view.movesToDeadLetterOnNextReceive)
        state += QStringLiteral(" — ") + tr("its next receive moves it to the dead-letter queue");
    // The reason behind the state, in the engine's words, with the user's names for clients.
    QString whyText;
    if (auto why = m_session.broker().explainMessage(toStdString(m_queue), view.key))
        whyText = toQString(why->text);
    if (!whyText.isEmpty()) {
        // The reason says until when and what the next receive does: the state line does not
        // say it again. The engine marks names with backticks; shown as quotes.
        m_state->setText(messageStateLabel(view.state));
        whyText = m_clients ? m_clients->relabel(whyText) : whyText;
        static const QRegularExpression quotedName(QStringLiteral("`([^`]*)`"));
        whyText.replace(quotedName, QStringLiteral("“\\1”"));
        whyText[0] = whyText[0].toUpper();
        m_why->setText(whyText);
        m_why->show();
    } else {
        m_state->setText(state);
        m_why->hide();
    }

    QList<QPair<QString, QString>> rows;
    const auto row = [&rows](const QString& name, const QString& value) {
        rows.append({name, value});
    };
    if (m_oci) { // the fields of an OCI GetMessages answer
        row(tr("deliveryCount"), QString::number(view.receiveCount));
        row(tr("createdAt"), formatEngineTime(view.sentAt));
        if (view.state == engine::MessageState::InFlight)
            row(tr("visibleAfter"), formatEngineTime(view.visibleAt));
        if (!view.channelId.empty())
            row(tr("channel"), toQString(view.channelId));
        row(tr("expireAfter"), formatEngineDateTime(view.expiresAt));
        row(tr("Inflight's id"), toQString(view.messageId));
    } else {
        row(tr("Receives"), QString::number(view.receiveCount));
        row(tr("Sent"), formatEngineTime(view.sentAt));
        if (view.firstReceivedAt != 0)
            row(tr("First received"), formatEngineTime(view.firstReceivedAt));
        if (view.state == engine::MessageState::InFlight)
            row(tr("This receive"), formatEngineTime(view.receivedAt));
        if (!view.groupId.empty())
            row(tr("Group"), toQString(view.groupId));
        if (!view.deduplicationId.empty())
            row(tr("Deduplication id"), toQString(view.deduplicationId));
        row(tr("Retained until"), formatEngineDateTime(view.expiresAt));
    }
    setDetails(rows);
    m_receipt->setText(toQString(view.receiptHandle));

    // Refreshed on every batch of events: a large body is decoded and indented once.
    if (view.body != m_shownBody || m_body->body().isEmpty() != view.body.empty()) {
        m_shownBody = view.body;
        m_body->setBody(prettyBody(toQString(view.body)));
    }
    fillAttributes(view);
}

void MessageInspector::setDetails(const QList<QPair<QString, QString>>& rows)
{
    // The same rows as last time are updated in place (a refresh on every event must not rebuild
    // widgets); other rows replace them, the receipt staying last.
    bool same = rows.size() == m_detailRows.size();
    for (qsizetype i = 0; same && i < rows.size(); ++i)
        same = rows[i].first == m_detailRows[i].first;
    if (!same) {
        while (m_detailsForm->rowCount() > 1)
            m_detailsForm->removeRow(0);
        m_detailFields.clear();
        for (qsizetype i = 0; i < rows.size(); ++i) {
            auto* field = new ElidedField(m_details);
            field->setObjectName(QStringLiteral("detailField"));
            // Ids are what one copies into a test or a log search; times and counts are read.
            static const QStringList kIds{tr("Group"), tr("Deduplication id"), tr("channel"),
                                          tr("Inflight's id")};
            field->setCopyable(kIds.contains(rows[i].first));
            m_detailsForm->insertRow(static_cast<int>(i), rows[i].first, field);
            m_detailFields.append(field);
        }
    }
    m_detailRows = rows;
    for (qsizetype i = 0; i < rows.size(); ++i)
        m_detailFields[i]->setText(rows[i].second);
}

QString MessageInspector::detail(const QString& name) const
{
    for (const auto& [rowName, value] : m_detailRows)
        if (rowName == name)
            return value;
    return {};
}

void MessageInspector::fillAttributes(const engine::MessageView& view)
{
    m_attributes->clear();
    auto* message = new QTreeWidgetItem(m_attributes, {tr("Message attributes")});
    for (const auto& [name, value] : view.attributes)
        new QTreeWidgetItem(
            message, {toQString(name), toQString(value.dataType), attributeValueText(value)});
    if (view.attributes.empty())
        new QTreeWidgetItem(message, {tr("(none)")});

    auto* system = new QTreeWidgetItem(m_attributes, {tr("System attributes")});
    const auto add = [system](const char* name, const QString& value) {
        if (!value.isEmpty())
            new QTreeWidgetItem(system, {QString::fromLatin1(name), QString(), value});
    };
    add("SenderId", toQString(m_session.broker().options().accountId));
    add("SentTimestamp", QString::number(view.sentAt));
    add("ApproximateReceiveCount", QString::number(view.receiveCount));
    if (view.firstReceivedAt != 0)
        add("ApproximateFirstReceiveTimestamp", QString::number(view.firstReceivedAt));
    add("MessageGroupId", toQString(view.groupId));
    add("MessageDeduplicationId", toQString(view.deduplicationId));
    add("SequenceNumber", toQString(view.sequenceNumber));
    add("DeadLetterQueueSourceArn", toQString(view.deadLetterSourceArn));
    for (const auto& [name, value] : view.systemAttributes)
        new QTreeWidgetItem(
            system, {toQString(name), toQString(value.dataType), attributeValueText(value)});
    m_attributes->expandAll();
}

void MessageInspector::showGone()
{
    m_why->hide();
    m_state->setText(tr("No longer in %1: deleted, moved or expired. The timeline shows what "
                        "happened.")
                         .arg(m_queue));
    m_receipt->setText({});
}

void MessageInspector::fitTimeline()
{
    // The queue column matters only once the message has moved to another queue.
    bool moved = false;
    for (int row = 1; row < m_timeline->rowCount() && !moved; ++row)
        moved = m_timeline->index(row, TimelineModel::QueueColumn).data()
            != m_timeline->index(0, TimelineModel::QueueColumn).data();
    m_timelineView->setColumnHidden(TimelineModel::QueueColumn, !moved);
    m_timelineView->resizeColumnsToContents();
    m_timelineView->setColumnWidth(
        TimelineModel::ReceiptColumn,
        m_timelineView->fontMetrics().horizontalAdvance(QStringLiteral("0000000000000")));
}

void MessageInspector::onEvents(const std::vector<engine::Event>& events)
{
    if (!m_key)
        return;
    const std::string queue = toStdString(m_queue);
    for (const engine::Event& event : events) {
        const bool queueWide = event.kind == engine::EventKind::QueuePurged
            || event.kind == engine::EventKind::QueueDeleted;
        if (event.queue == queue && (queueWide || event.key == *m_key)) {
            refresh();
            return;
        }
    }
}

} // namespace inflight::ui
