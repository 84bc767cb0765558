#pragma once

#include "ui/widgets/message_actions.h"

#include <QDialog>

class QLabel;
class QRadioButton;
class QSpinBox;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ErrorLabel;

// Changes the visibility of the selected in-flight messages: extend by any number of seconds
// (added to what each receipt still holds) or set to an exact value (0 releases). The engine's
// limits apply — a total beyond 12 hours from the receive is refused with the service's message,
// shown inline; the dialog stays open then. Widgets: extendRadio, setRadio, secondsSpin,
// summaryLabel, okButton, errorLabel.
class VisibilityDialog : public QDialog {
    Q_OBJECT
public:
    VisibilityDialog(session::Session& session, const QString& queue,
                     std::vector<InFlightMessage> messages,
                     VisibilityChange initial = VisibilityChange::setTo(30),
                     QWidget* parent = nullptr);

    VisibilityChange change() const;
    void setChange(VisibilityChange change);
    QString errorText() const;

    void accept() override;

Q_SIGNALS:
    void applied(const QString& summary);

private:
    void refreshSummary();

    session::Session& m_session;
    QString m_queue;
    std::vector<InFlightMessage> m_messages;
    QRadioButton* m_extend = nullptr;
    QRadioButton* m_set = nullptr;
    QSpinBox* m_seconds = nullptr;
    QLabel* m_summary = nullptr;
    ErrorLabel* m_error = nullptr;
};

} // namespace inflight::ui
