#pragma once

#include "engine/types.h"

#include <QDialog>

class QLineEdit;
class QSpinBox;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ErrorLabel;

// Sends N generated messages for quick load. The body template replaces {n} with the message's
// number (1..N) and {time} with the engine time of the send; FIFO messages spread over a number of
// groups (group-1, group-2, …) with unique deduplication ids; OCI messages take turns over a list
// of channels. Stops at the first error and shows it inline with how many were sent.
// Widgets: countSpin, templateEdit, groupCountSpin, channelsEdit, delaySpin, okButton, errorLabel.
class GenerateDialog : public QDialog {
    Q_OBJECT
public:
    GenerateDialog(session::Session& session, const QString& queue, QWidget* parent = nullptr);

    void setCount(int count);
    QString errorText() const;
    // How many the last run sent.
    int sentCount() const { return m_sent; }

    void accept() override;

private:
    session::Session& m_session;
    QString m_queue;
    engine::QueueKind m_kind = engine::QueueKind::Standard;
    QSpinBox* m_count = nullptr;
    QLineEdit* m_template = nullptr;
    QSpinBox* m_groups = nullptr;
    QLineEdit* m_channels = nullptr;
    QSpinBox* m_delay = nullptr;
    ErrorLabel* m_error = nullptr;
    int m_sent = 0;
};

} // namespace inflight::ui
