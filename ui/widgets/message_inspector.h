#pragma once

#include "engine/events.h"
#include "engine/types.h"
#include "engine/views.h"

#include <QList>
#include <QPair>
#include <QWidget>

#include <string>

#include <optional>
#include <vector>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class BodyView;

class ClientDirectory;
class ElidedField;
class MessageHistory;
class TimelineModel;

// The inspector of the selected message, by peek (looking changes nothing): its id, state,
// receive count and times; the body, pretty-printed when it is JSON; message and system
// attributes; the current receipt handle; and its timeline (every event of the message since the
// window opened, across queues, with engine times and origins). Follows the session's events for
// the message it shows. Widgets: inspectorTitle, stateLabel, bodyView, attributesTree,
// detailsPanel (a form of elided fields), receiptField, timelineView, inspectorTabs.
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
    // The whole value of a field shown in the details ("Deduplication id", "deliveryCount"); empty
    // when the message shows no such field.
    QString detail(const QString& name) const;
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
    void setDetails(const QList<QPair<QString, QString>>& rows);
    void fitTimeline();

    session::Session& m_session;
    QString m_queue;
    QString m_messageId;
    std::optional<engine::MessageKey> m_key;

    QLabel* m_title = nullptr;
    QLabel* m_state = nullptr;
    QWidget* m_details = nullptr; // detailsPanel: a form of the fields below
    QFormLayout* m_detailsForm = nullptr;
    QList<QPair<QString, QString>> m_detailRows;
    QList<ElidedField*> m_detailFields;
    QLabel* m_why = nullptr; // explanationLabel: explainMessage's sentence
    const ClientDirectory* m_clients = nullptr;
    bool m_oci = false;               // an OCI queue: OCI's field names and numeric id
    ElidedField* m_receipt = nullptr; // receiptField
    QTabWidget* m_tabs = nullptr;
    BodyView* m_body = nullptr;
    std::string m_shownBody; // the raw body m_body shows
    QTreeWidget* m_attributes = nullptr;
    QTableView* m_timelineView = nullptr;
    TimelineModel* m_timeline = nullptr;
};

} // namespace inflight::ui
