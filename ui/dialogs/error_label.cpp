#include "ui/dialogs/error_label.h"

#include "ui/widgets/palette_colors.h"

namespace inflight::ui {

ErrorLabel::ErrorLabel(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("errorLabel"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = palette();
    p.setColor(QPalette::WindowText, warningColor(p));
    setPalette(p);
    hide();
}

void ErrorLabel::showError(const QString& text)
{
    setText(text);
    show();
}

void ErrorLabel::clearError()
{
    clear();
    hide();
}

} // namespace inflight::ui
