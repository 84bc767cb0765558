#pragma once

#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QToolButton;

namespace inflight::ui {

class EndpointControl;

// The endpoint in the status bar: "SQS endpoint: http://127.0.0.1:9324" with a button that copies
// the URL and, in its tooltip, an example command for the AWS CLI; "Endpoint off" or "Endpoint
// failed: <why>" in the warning colour otherwise. Follows the control's changed() signal. Its
// context menu holds the copy action and any action given with addMenuAction(). Widgets:
// endpointStatus (this), endpointLabel, endpointCopyButton; action copyEndpointAction.
class EndpointStatus : public QWidget {
    Q_OBJECT
public:
    explicit EndpointStatus(QWidget* parent = nullptr);

    // The endpoint shown; null shows "Endpoint off". Not owned.
    void setEndpoint(EndpointControl* endpoint);
    EndpointControl* endpoint() const { return m_endpoint; }

    // The label's text.
    QString text() const;
    // "http://127.0.0.1:9324" while listening; empty otherwise.
    QString url() const;
    // True while the text is in the warning colour (off or failed).
    bool isWarning() const { return m_warning; }

    // Copies url() to the clipboard.
    void copyUrl() const;
    void addMenuAction(QAction* action);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    QPointer<EndpointControl> m_endpoint;
    QLabel* m_label = nullptr;
    QToolButton* m_copyButton = nullptr;
    QAction* m_copy = nullptr;
    bool m_warning = false;
};

} // namespace inflight::ui
