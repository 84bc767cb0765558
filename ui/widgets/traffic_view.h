#pragma once

#include <QWidget>

#include <cstdint>
#include <set>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace inflight::session {
class Session;
}
namespace inflight::traffic {
class TrafficLog;
struct TrafficRecord;
} // namespace inflight::traffic

namespace inflight::ui {

class NoticeBar;

class ClientDirectory;
class EventLogModel;
class TrafficFilterModel;
class TrafficTableModel;

// The Traffic tab: one row per HTTP request the endpoint handled (TrafficTableModel), filtered by
// client, operation, queue, errors only, empty receives only and text; following the newest
// request unless the user scrolls away. Selecting a row shows the decoded request and answer, the
// reason behind the outcome and the engine events the request caused (double-click one: that
// message and its timeline); the request can be copied as a curl or an `aws sqs` command; the log
// or the filtered rows export as HAR 1.2. Widgets: trafficClientCombo, trafficOperationCombo,
// trafficQueueCombo, trafficErrorsCheck, trafficEmptyCheck, trafficTextEdit, trafficFollowCheck,
// trafficView, trafficCountLabel, trafficSummaryLabel, trafficExplanationLabel, copyCurlButton,
// copyAwsButton, exportHarButton, trafficLimitsButton, trafficRequestText, trafficResponseText,
// trafficEventsTree.
class TrafficView : public QWidget {
    Q_OBJECT
public:
    // `events` is the window's event log, which holds the events the requests caused.
    TrafficView(traffic::TrafficLog& log, session::Session& session, ClientDirectory& clients,
                const EventLogModel& events, QWidget* parent = nullptr);

    TrafficTableModel* model() const { return m_model; }
    TrafficFilterModel* filterModel() const { return m_filter; }
    QTableView* view() const { return m_view; }

    // Selects the row of that request (clearing filters that hide it). False when it is no
    // longer in the log.
    bool selectRequest(std::uint64_t cursor);
    // The selected request's record; nullptr when none.
    const traffic::TrafficRecord* selectedRecord() const;
    // Shows only the requests of that client key (empty: all).
    void setClientFilter(const QString& clientKey);
    // Writes the log (or only the rows the filters show) as HAR 1.2; returns why it could not, or
    // an empty string.
    // Says what it did in the notice under the view (trafficNotice): how many, where; or why not.
    QString exportHar(const QString& path, bool filteredOnly);
    // What "Copy as curl" / "Copy as aws sqs" put on the clipboard for the selected request.
    QString curlText() const;
    QString awsText() const;

Q_SIGNALS:
    // The user asked for a message the selected request touched.
    void messageActivated(const QString& queue, const QString& messageId);

protected:
    // The rows follow the log while the tab is shown and catch up when it is shown again, so a
    // busy endpoint costs a hidden Traffic tab nothing but bookkeeping.
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onFlushed();
    void showSelected();
    void updateCount();
    void refreshChoices();
    void editLimits();

    traffic::TrafficLog& m_log;
    ClientDirectory& m_clients;
    TrafficTableModel* m_model = nullptr;
    TrafficFilterModel* m_filter = nullptr;
    QComboBox* m_client = nullptr;
    QComboBox* m_operation = nullptr;
    QComboBox* m_queue = nullptr;
    QCheckBox* m_errors = nullptr;
    QCheckBox* m_empty = nullptr;
    QCheckBox* m_redeliveries = nullptr;
    QLineEdit* m_text = nullptr;
    QCheckBox* m_follow = nullptr;
    QTableView* m_view = nullptr;
    NoticeBar* m_notice = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_explanation = nullptr;
    QPushButton* m_copyCurl = nullptr;
    QPushButton* m_copyAws = nullptr;
    QTabWidget* m_detailTabs = nullptr;
    QPlainTextEdit* m_request = nullptr;
    QPlainTextEdit* m_response = nullptr;
    QTreeWidget* m_events = nullptr;
    std::uint64_t m_scanned = 0; // the newest cursor whose operation and queue are in the combos
    std::set<QString> m_operations;
    std::set<QString> m_queues;
};

} // namespace inflight::ui
