#include "ui/widgets/traffic_view.h"

#include "ui/widgets/column_menu.h"
#include "ui/widgets/notice_bar.h"

#include "traffic/traffic_commands.h"
#include "traffic/traffic_json.h"
#include "traffic/traffic_log.h"
#include "ui/models/client_directory.h"
#include "ui/models/traffic_table_model.h"
#include "ui/widgets/wire_text.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

constexpr int kMessageIdRole = Qt::UserRole + 1;
constexpr int kQueueRole = Qt::UserRole + 2;

QPlainTextEdit* readOnlyText(const QString& name, QWidget* parent)
{
    auto* text = new QPlainTextEdit(parent);
    text->setObjectName(name);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return text;
}

QString exchangeText(const QString& firstLine, const traffic::Headers& headers,
                     const QByteArray& body, const QByteArray& contentType, qsizetype bodySize,
                     bool truncated)
{
    QString text = firstLine + QLatin1Char('\n') + headerLines(headers);
    if (!body.isEmpty() || bodySize > 0) {
        text += QStringLiteral("\n\n") + readableBody(body, contentType);
        if (truncated)
            text += QObject::tr("\n\n… the log kept %1 of %2 bytes").arg(body.size()).arg(bodySize);
    }
    return text;
}

traffic::TrafficLimits savedLimits(const traffic::TrafficLimits& defaults)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("traffic"));
    traffic::TrafficLimits limits = defaults;
    limits.maxRecords
        = settings.value(QStringLiteral("maxRecords"), qulonglong(defaults.maxRecords))
              .toULongLong();
    limits.maxBodyBytesPerRequest
        = settings.value(QStringLiteral("maxBodyBytesPerRequest"), defaults.maxBodyBytesPerRequest)
              .toLongLong();
    limits.maxBodyBytesTotal
        = settings.value(QStringLiteral("maxBodyBytesTotal"), defaults.maxBodyBytesTotal)
              .toLongLong();
    return limits;
}

} // namespace

TrafficView::TrafficView(traffic::TrafficLog& log, session::Session& session,
                         ClientDirectory& clients, const EventLogModel& events, QWidget* parent)
    : QWidget(parent), m_log(log), m_clients(clients)
{
    setObjectName(QStringLiteral("trafficPage"));
    m_log.setLimits(savedLimits(m_log.limits()));
    m_model = new TrafficTableModel(log, session, clients, events, this);
    m_filter = new TrafficFilterModel(this);
    m_filter->setSourceModel(m_model);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // The filters in a toolbar: a narrow window folds the last of them into its ">>" menu
    // instead of being held 1,000 px wide by them (side by side with an editor).
    auto* filters = new QToolBar(this);
    filters->setObjectName(QStringLiteral("trafficFilterBar"));
    const auto combo = [this](const QString& name, const QString& all, const QString& tip) {
        auto* box = new QComboBox(this);
        box->setObjectName(name);
        box->addItem(all, QString());
        box->setToolTip(tip);
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        return box;
    };
    m_client = combo(QStringLiteral("trafficClientCombo"), tr("All clients"),
                     tr("Only the requests of one client (Clients panel)"));
    m_operation = combo(QStringLiteral("trafficOperationCombo"), tr("All operations"),
                        tr("Only one operation"));
    m_queue = combo(QStringLiteral("trafficQueueCombo"), tr("All queues"),
                    tr("Only the requests that addressed one queue"));
    m_errors = new QCheckBox(tr("Errors"), this);
    m_errors->setObjectName(QStringLiteral("trafficErrorsCheck"));
    m_errors->setToolTip(tr("Only answers with an HTTP status of 400 or more"));
    m_empty = new QCheckBox(tr("Empty receives"), this);
    m_empty->setObjectName(QStringLiteral("trafficEmptyCheck"));
    m_empty->setToolTip(tr("Only receives that returned no message (see why in the detail)"));
    m_redeliveries = new QCheckBox(tr("Stale / again"), this);
    m_redeliveries->setObjectName(QStringLiteral("trafficRedeliveryCheck"));
    m_redeliveries->setToolTip(
        tr("Only requests that used a stale receipt (of an earlier receive) or received messages "
           "again: a consumer slower than its visibility timeout processes them twice"));
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("trafficTextEdit"));
    m_text->setPlaceholderText(tr("Filter by text (ids, bodies, errors)"));
    m_text->setClearButtonEnabled(true);
    m_text->setMinimumWidth(m_text->fontMetrics().horizontalAdvance(QStringLiteral("x")) * 18);
    m_follow = new QCheckBox(tr("Follow"), this);
    m_follow->setObjectName(QStringLiteral("trafficFollowCheck"));
    m_follow->setToolTip(tr("Keep the newest request in view"));
    m_follow->setChecked(true);
    auto* exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("exportHarButton"));
    exportButton->setText(tr("Export HAR"));
    exportButton->setToolTip(tr("Save requests as HAR 1.2, for browsers' developer tools and "
                                "HTTP tools"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    const auto exportTo = [this](bool filtered) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export traffic as HAR"),
                                                          QStringLiteral("inflight-traffic.har"),
                                                          tr("HAR files (*.har);;All files (*)"));
        if (path.isEmpty())
            return;
        exportHar(path, filtered); // says what it did in the notice under the view
    };
    exportMenu->addAction(tr("Every request kept…"), this, [exportTo] { exportTo(false); });
    exportMenu->addAction(tr("The rows shown…"), this, [exportTo] { exportTo(true); });
    exportButton->setMenu(exportMenu);
    auto* limits = new QToolButton(this);
    limits->setObjectName(QStringLiteral("trafficLimitsButton"));
    limits->setText(tr("Limits…"));
    limits->setToolTip(tr("How many requests and body bytes the log keeps"));
    connect(limits, &QToolButton::clicked, this, &TrafficView::editLimits);
    // The text filter first: what folds into ">>" on a narrow window are the rarer ones.
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    filters->addWidget(m_text);
    filters->addWidget(m_client);
    filters->addWidget(m_operation);
    filters->addWidget(m_queue);
    filters->addWidget(m_errors);
    filters->addWidget(m_empty);
    filters->addWidget(m_redeliveries);
    filters->addWidget(m_follow);
    filters->addWidget(exportButton);
    filters->addWidget(limits);
    layout->addWidget(filters);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("trafficCountLabel"));
    layout->addWidget(m_count);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("trafficSplitter"));
    split->setChildrenCollapsible(false);
    m_view = new QTableView(split);
    m_view->setObjectName(QStringLiteral("trafficView"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    const QFontMetrics metrics = m_view->fontMetrics();
    const auto width = [&metrics](const char* sample) {
        return metrics.horizontalAdvance(QString::fromUtf8(sample)) + 18;
    };
    using M = TrafficTableModel;
    m_view->setColumnWidth(M::TimeColumn, width("00:00:00.000"));
    m_view->setColumnWidth(M::WallTimeColumn, width("00:00:00.000"));
    // One clock per view: engine time, as the messages and the event log show it.
    m_view->setColumnHidden(M::WallTimeColumn, true);
    addColumnMenu(m_view->horizontalHeader()); // a right click on the header shows it
    m_view->setColumnWidth(M::ClientColumn, width("aws-cli/2.9.19 AKIAEXAMPLE") + 12);
    m_view->setColumnWidth(M::ProtocolColumn, width("sqs-query"));
    m_view->setColumnWidth(M::OperationColumn, width("ChangeMessageVisibility"));
    m_view->setColumnWidth(M::QueueColumn, width("orders-dlq.fifo"));
    m_view->setColumnWidth(M::StatusColumn, width("waiting…"));
    m_view->setColumnWidth(M::ErrorColumn, width("ReceiptHandleIsInvalid"));
    m_view->setColumnWidth(M::LatencyColumn, width("20000.0 ms"));
    m_view->setColumnWidth(M::OutcomeColumn, width("empty after a 20 s long poll") + 20);
    split->addWidget(m_view);

    auto* detail = new QWidget(split);
    detail->setObjectName(QStringLiteral("trafficDetail"));
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 4, 0, 0);
    auto* header = new QHBoxLayout;
    m_summary = new QLabel(detail);
    m_summary->setObjectName(QStringLiteral("trafficSummaryLabel"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    m_copyCurl = new QPushButton(tr("Copy as curl"), detail);
    m_copyCurl->setObjectName(QStringLiteral("copyCurlButton"));
    m_copyCurl->setToolTip(tr("A curl command that sends this request again"));
    m_copyAws = new QPushButton(tr("Copy as aws sqs"), detail);
    m_copyAws->setObjectName(QStringLiteral("copyAwsButton"));
    m_copyAws->setToolTip(tr("The AWS CLI command that makes this request"));
    header->addWidget(m_summary, 1);
    header->addWidget(m_copyCurl);
    header->addWidget(m_copyAws);
    detailLayout->addLayout(header);
    m_explanation = new QLabel(detail);
    m_explanation->setObjectName(QStringLiteral("trafficExplanationLabel"));
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detailLayout->addWidget(m_explanation);
    m_detailTabs = new QTabWidget(detail);
    m_detailTabs->setDocumentMode(true);
    m_request = readOnlyText(QStringLiteral("trafficRequestText"), m_detailTabs);
    m_response = readOnlyText(QStringLiteral("trafficResponseText"), m_detailTabs);
    m_events = new QTreeWidget(m_detailTabs);
    m_events->setObjectName(QStringLiteral("trafficEventsTree"));
    m_events->setRootIsDecorated(false);
    m_events->setHeaderLabels(
        {tr("Engine time"), tr("Queue"), tr("Event"), tr("Message"), tr("Detail")});
    m_events->setToolTip(tr("Double-click an event to select its message and timeline"));
    m_detailTabs->addTab(m_request, tr("Request"));
    m_detailTabs->addTab(m_response, tr("Response"));
    m_detailTabs->addTab(m_events, tr("Engine events"));
    detailLayout->addWidget(m_detailTabs, 1);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    // Under everything: what an export did (it moves nothing the user is about to click).
    m_notice = new NoticeBar(this);
    m_notice->setObjectName(QStringLiteral("trafficNotice"));
    layout->addWidget(m_notice);

    connect(m_client, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setClientFilter(m_client->currentData().toString()); });
    connect(m_operation, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setOperationFilter(m_operation->currentData().toString()); });
    connect(m_queue, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setQueueFilter(m_queue->currentData().toString()); });
    connect(m_errors, &QCheckBox::toggled, m_filter, &TrafficFilterModel::setErrorsOnly);
    connect(m_empty, &QCheckBox::toggled, m_filter, &TrafficFilterModel::setEmptyReceivesOnly);
    connect(m_redeliveries, &QCheckBox::toggled, m_filter,
            &TrafficFilterModel::setRedeliveriesOnly);
    connect(m_text, &QLineEdit::textChanged, m_filter, &TrafficFilterModel::setTextFilter);
    for (auto* box : {m_client, m_operation, m_queue})
        connect(box, &QComboBox::currentIndexChanged, this, &TrafficView::updateCount);
    for (auto* check : {m_errors, m_empty})
        connect(check, &QCheckBox::toggled, this, &TrafficView::updateCount);
    connect(m_text, &QLineEdit::textChanged, this, &TrafficView::updateCount);
    connect(m_model, &TrafficTableModel::flushed, this, &TrafficView::onFlushed);
    connect(&clients, &ClientDirectory::changed, this, &TrafficView::refreshChoices);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TrafficView::showSelected);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (value < m_view->verticalScrollBar()->maximum() && m_view->isVisible()
            && QApplication::mouseButtons() != Qt::NoButton)
            m_follow->setChecked(false);
    });
    connect(m_copyCurl, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(curlText()); });
    connect(m_copyAws, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(awsText()); });
    connect(m_events, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QString id = item->data(0, kMessageIdRole).toString();
        if (!id.isEmpty())
            Q_EMIT messageActivated(item->data(0, kQueueRole).toString(), id);
    });
    m_model->setActive(false); // until shown
    showSelected();
    refreshChoices();
    updateCount();
}

void TrafficView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_model->setActive(true);
}

void TrafficView::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_model->setActive(false);
}

void TrafficView::onFlushed()
{
    refreshChoices();
    updateCount();
    if (const traffic::TrafficRecord* shown = selectedRecord())
        if (m_summary->property("waiting").toBool() && !shown->waiting)
            showSelected(); // the long poll it showed has been answered
    if (m_follow->isChecked())
        m_view->scrollToBottom();
}

void TrafficView::refreshChoices()
{
    // Clients: every client seen, by name when named.
    const QString chosenClient = m_client->currentData().toString();
    const auto clients = m_log.clients().clients();
    if (m_client->count() != static_cast<int>(clients.size()) + 1 || sender() == &m_clients) {
        const QSignalBlocker block(m_client);
        m_client->clear();
        m_client->addItem(tr("All clients"), QString());
        for (const auto& client : clients) {
            const QString name = m_clients.name(client.identity.key);
            m_client->addItem(name.isEmpty()
                                  ? client.identity.key
                                  : QStringLiteral("%1 (%2)").arg(name, client.identity.key),
                              client.identity.key);
        }
        m_client->setCurrentIndex(std::max(0, m_client->findData(chosenClient)));
    }
    // Operations and queues seen in the requests since the last scan.
    bool grew = false;
    const std::uint64_t newest = m_log.cursor();
    for (std::uint64_t at = std::max(m_scanned + 1, m_log.oldestCursor()); at <= newest; ++at) {
        if (const traffic::TrafficRecord* record = m_log.find(at)) {
            if (!record->operation.isEmpty())
                grew = m_operations.insert(record->operation).second || grew;
            if (!record->queue.isEmpty())
                grew = m_queues.insert(record->queue).second || grew;
        }
    }
    m_scanned = newest;
    if (!grew)
        return;
    const auto refill = [](QComboBox* box, const std::set<QString>& values) {
        const QString chosen = box->currentData().toString();
        const QSignalBlocker block(box);
        while (box->count() > 1)
            box->removeItem(1);
        for (const QString& value : values)
            box->addItem(value, value);
        box->setCurrentIndex(std::max(0, box->findData(chosen)));
    };
    refill(m_operation, m_operations);
    refill(m_queue, m_queues);
}

void TrafficView::updateCount()
{
    const QLocale locale;
    QString text = m_filter->isFiltering()
        ? tr("%1 of %2 requests shown")
              .arg(locale.toString(m_filter->rowCount()), locale.toString(m_model->rowCount()))
        : tr("%1 requests").arg(locale.toString(m_model->rowCount()));
    if (m_log.dropped() > 0)
        text += tr(" · the %1 oldest were dropped (the log keeps %2 requests and %3 MiB of bodies; "
                   "Limits…)")
                    .arg(locale.toString(qulonglong(m_log.dropped())),
                         locale.toString(qulonglong(m_log.limits().maxRecords)),
                         locale.toString(m_log.limits().maxBodyBytesTotal / (1024 * 1024)));
    m_count->setText(text);
}

const traffic::TrafficRecord* TrafficView::selectedRecord() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_model->record(m_filter->mapToSource(current).row());
}

void TrafficView::showSelected()
{
    const traffic::TrafficRecord* r = selectedRecord();
    m_copyCurl->setEnabled(r != nullptr);
    m_copyAws->setEnabled(r && !traffic::awsCliCommand(*r).isEmpty());
    m_events->clear();
    if (!r) {
        m_summary->setText(tr("Select a request to see what was sent and answered."));
        m_summary->setProperty("waiting", false);
        m_explanation->clear();
        m_explanation->hide();
        m_request->clear();
        m_response->clear();
        return;
    }
    m_summary->setProperty("waiting", r->waiting);
    const QString operation
        = r->operation.isEmpty() ? QString::fromUtf8(r->method + ' ' + r->path) : r->operation;
    const QString status = r->waiting ? tr("waiting…")
        : r->status == 0              ? tr("client hung up")
                                      : QString::number(r->status);
    QString summary = QStringLiteral("#%1 %2 → %3").arg(r->cursor).arg(operation, status);
    if (!r->outcome.isEmpty())
        summary += QStringLiteral(" · ") + r->outcome;
    if (!r->waiting)
        summary += QStringLiteral(" · %1 ms").arg(r->latencyUs / 1000.0, 0, 'f', 1);
    m_summary->setText(summary);
    QStringList why;
    if (!r->errorMessage.isEmpty())
        why << QStringLiteral("%1: %2").arg(r->errorCode, r->errorMessage);
    if (!r->explanation.isEmpty())
        why << tr("Why: %1").arg(r->explanation);
    m_explanation->setText(why.join(QLatin1Char('\n')));
    m_explanation->setVisible(!why.isEmpty());
    QString target = QString::fromUtf8(r->path);
    if (!r->query.isEmpty())
        target += QLatin1Char('?') + QString::fromUtf8(r->query);
    m_request->setPlainText(exchangeText(QString::fromUtf8(r->method) + QLatin1Char(' ') + target,
                                         r->requestHeaders, r->requestBody, r->requestContentType,
                                         r->requestBodySize, r->requestTruncated));
    m_response->setPlainText(r->waiting ? tr("(a long poll, not answered yet)")
                                 : r->status == 0
                                 ? tr("(the client closed the connection before the answer)")
                                 : exchangeText(QStringLiteral("HTTP %1").arg(r->status),
                                                r->responseHeaders, r->responseBody,
                                                r->responseContentType, r->responseBodySize,
                                                r->responseTruncated));
    for (const EventRecord& event : m_model->eventsOf(r->cursor)) {
        auto* item = new QTreeWidgetItem(m_events,
                                         {formatEngineTime(event.time), event.queue,
                                          eventKindLabel(event.kind), shortId(event.messageId),
                                          describeEvent(event)});
        item->setData(0, kMessageIdRole, event.messageId);
        item->setData(0, kQueueRole, event.queue);
        item->setToolTip(3, event.messageId);
    }
    m_detailTabs->setTabText(2, tr("Engine events (%1)").arg(m_events->topLevelItemCount()));
}

bool TrafficView::selectRequest(std::uint64_t cursor)
{
    m_model->flush();
    int row = m_model->rowOfCursor(cursor);
    if (row < 0 || !m_model->record(row))
        return false;
    QModelIndex at = m_filter->mapFromSource(m_model->index(row, 0));
    if (!at.isValid()) { // a filter hides it
        const QSignalBlocker a(m_client), b(m_operation), c(m_queue), d(m_errors), e(m_empty),
            f(m_text);
        m_client->setCurrentIndex(0);
        m_operation->setCurrentIndex(0);
        m_queue->setCurrentIndex(0);
        m_errors->setChecked(false);
        m_empty->setChecked(false);
        m_text->clear();
        m_filter->setClientFilter({});
        m_filter->setOperationFilter({});
        m_filter->setQueueFilter({});
        m_filter->setErrorsOnly(false);
        m_filter->setEmptyReceivesOnly(false);
        m_filter->setTextFilter({});
        updateCount();
        at = m_filter->mapFromSource(m_model->index(row, 0));
    }
    m_follow->setChecked(false);
    m_view->selectionModel()->setCurrentIndex(
        at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(at, QAbstractItemView::PositionAtCenter);
    return true;
}

void TrafficView::setClientFilter(const QString& clientKey)
{
    refreshChoices();
    m_client->setCurrentIndex(std::max(0, m_client->findData(clientKey)));
}

QString TrafficView::exportHar(const QString& path, bool filteredOnly)
{
    std::vector<traffic::TrafficRecord> records;
    if (filteredOnly) {
        for (int row = 0; row < m_filter->rowCount(); ++row)
            if (const auto* r
                = m_model->record(m_filter->mapToSource(m_filter->index(row, 0)).row()))
                records.push_back(*r);
    } else {
        records = m_log.after(0, SIZE_MAX);
    }
    QFile file(path);
    const auto failed = [&] {
        const QString why = tr("Cannot write %1: %2").arg(path, file.errorString());
        m_notice->showError(why);
        return why;
    };
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return failed();
    const std::string text
        = traffic::harDocument(records, QCoreApplication::applicationVersion()).dump(2);
    if (file.write(text.data(), static_cast<qint64>(text.size())) != qint64(text.size()))
        return failed();
    m_notice->showInfo(
        tr("Exported %1 as HAR to %2.")
            .arg(records.size() == 1 ? tr("1 request") : tr("%1 requests").arg(records.size()),
                 path));
    return {};
}

QString TrafficView::curlText() const
{
    const traffic::TrafficRecord* r = selectedRecord();
    return r ? traffic::curlCommand(*r) : QString();
}

QString TrafficView::awsText() const
{
    const traffic::TrafficRecord* r = selectedRecord();
    return r ? traffic::awsCliCommand(*r) : QString();
}

void TrafficView::editLimits()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("trafficLimitsDialog"));
    dialog.setWindowTitle(tr("Traffic log limits"));
    auto* form = new QFormLayout(&dialog);
    const traffic::TrafficLimits current = m_log.limits();
    auto* records = new QSpinBox(&dialog);
    records->setObjectName(QStringLiteral("maxRecordsSpin"));
    records->setRange(0, 1'000'000);
    records->setValue(static_cast<int>(current.maxRecords));
    auto* perRequest = new QSpinBox(&dialog);
    perRequest->setObjectName(QStringLiteral("maxBodyKibSpin"));
    perRequest->setRange(0, 16 * 1024);
    perRequest->setSuffix(tr(" KiB"));
    perRequest->setValue(static_cast<int>(current.maxBodyBytesPerRequest / 1024));
    auto* total = new QSpinBox(&dialog);
    total->setObjectName(QStringLiteral("maxTotalMibSpin"));
    total->setRange(0, 4096);
    total->setSuffix(tr(" MiB"));
    total->setValue(static_cast<int>(current.maxBodyBytesTotal / (1024 * 1024)));
    form->addRow(tr("Requests kept:"), records);
    form->addRow(tr("Body bytes kept per request:"), perRequest);
    form->addRow(tr("Body bytes kept in all:"), total);
    form->addRow(new QLabel(tr("Past these, the oldest requests go first. 0 requests keeps none "
                               "(clients are still counted)."),
                            &dialog));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    traffic::TrafficLimits limits;
    limits.maxRecords = static_cast<std::size_t>(records->value());
    limits.maxBodyBytesPerRequest = qsizetype(perRequest->value()) * 1024;
    limits.maxBodyBytesTotal = qsizetype(total->value()) * 1024 * 1024;
    m_log.setLimits(limits);
    QSettings settings;
    settings.beginGroup(QStringLiteral("traffic"));
    settings.setValue(QStringLiteral("maxRecords"), qulonglong(limits.maxRecords));
    settings.setValue(QStringLiteral("maxBodyBytesPerRequest"), limits.maxBodyBytesPerRequest);
    settings.setValue(QStringLiteral("maxBodyBytesTotal"), limits.maxBodyBytesTotal);
    updateCount();
}

} // namespace inflight::ui
