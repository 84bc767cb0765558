#include "ui/dialogs/error_label.h"

#include "ui/widgets/palette_colors.h"

#include <QLayout>

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
    // The dialog grows to hold the line: the fields above keep their height (a dialog that kept
    // its size squeezed them).
    if (QWidget* dialog = window(); dialog != this && dialog->isVisible() && dialog->layout()) {
        dialog->layout()->activate();
        const int wanted = dialog->layout()->totalHeightForWidth(dialog->width());
        const int height = wanted > 0 ? wanted : dialog->sizeHint().height();
        if (dialog->height() < height)
            dialog->resize(dialog->width(), height);
    }
}

void ErrorLabel::clearError()
{
    clear();
    hide();
}

} // namespace inflight::ui
