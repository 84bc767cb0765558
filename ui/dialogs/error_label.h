#pragma once

#include <QLabel>

namespace inflight::ui {

// The inline error line of a dialog: the service's code and message in the warning colour,
// selectable so it can be copied; hidden while empty. objectName errorLabel.
class ErrorLabel : public QLabel {
    Q_OBJECT
public:
    explicit ErrorLabel(QWidget* parent = nullptr);

    void showError(const QString& text);
    void clearError();
    QString errorText() const { return isHidden() ? QString() : text(); }
};

} // namespace inflight::ui
