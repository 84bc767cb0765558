#pragma once

#include "engine/events.h"
#include "engine/types.h"
#include "engine/views.h"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ClientDirectory;
class MessageHistory;
class TimelineModel;

// The inspector of the selected message, by peek (looking changes nothing): its id, state,
// receive count and times; the body, pretty-printed when it is JSON; message and system
// attributes; the current receipt handle; and its timeline (every event of the message since the
// window opened, across queues, with engine times and origins). Follows the session's events for
// the message it shows. Widgets: inspectorTitle, stateLabel, bodyView, attributesTree,
// receiptEdit, timelineView, inspectorTabs.
class MessageInspector : public QWidget {
    Q_OBJECT
public:
    MessageInspector(session::Session& session, MessageHistory& history, QWidget* parent = nullptr);

    // Shows the message `key` of `queue` (its id for the timeline).
    void setMessage(const QString& queue, engine::MessageKey key, const QString& messageId);
    void clear();
    // Client names and colours in the explanation and the timeline (null: origins as they are).
    void setClients(const ClientDirectory* clients);
    // Re-reads the message by peek.
    void refresh();

    QString queue() const { return m_queue; }
    QString messageId() const { return m_messageId; }
    // The body as shown (indented JSON when the body is JSON).
    QString bodyText() const;
    QString receiptHandle() const;
    TimelineModel* timelineModel() const { return m_timeline; }
    QTableView* timelineView() const { return m_timelineView; }

    // JSON bodies indented (QJsonDocument::Indented), anything else as it is.
    static QString prettyBody(const QString& body);

private:
    void onEvents(const std::vector<engine::Event>& events);
    void showView(const engine::MessageView& view);
    void showGone();
    void fillAttributes(const engine::MessageView& view);
    void fitTimeline();

    session::Session& m_session;
    QString m_queue;
    QString m_messageId;
    std::optional<engine::MessageKey> m_key;

    QLabel* m_title = nullptr;
    QLabel* m_state = nullptr;
    QLabel* m_details = nullptr;
    QLabel* m_why = nullptr; // explanationLabel: explainMessage's sentence
    const ClientDirectory* m_clients = nullptr;
    bool m_oci = false; // an OCI queue: OCI's field names and numeric id
    QLineEdit* m_receipt = nullptr;
    QTabWidget* m_tabs = nullptr;
    QPlainTextEdit* m_body = nullptr;
    QTreeWidget* m_attributes = nullptr;
    QTableView* m_timelineView = nullptr;
    TimelineModel* m_timeline = nullptr;
};

} // namespace inflight::ui
