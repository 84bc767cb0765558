#include "ui/widgets/zoom.h"

#include <QAction>
#include <QApplication>
#include <QFont>
#include <QKeySequence>
#include <QMenu>
#include <QSettings>

#include <algorithm>
#include <cmath>

namespace inflight::ui {

namespace {

constexpr int kMin = 70;
constexpr int kMax = 250;
constexpr int kStep = 10;

// The platform's font size, before any zoom (taken once, at the first change).
double basePointSize()
{
    static const double base = QApplication::font().pointSizeF();
    return base;
}

int& current()
{
    static int percent = 100;
    return percent;
}

void apply(int percent)
{
    const double base = basePointSize();
    current() = std::clamp(percent, kMin, kMax);
    QFont font = QApplication::font();
    font.setPointSizeF(base * current() / 100.0);
    QApplication::setFont(font);
}

} // namespace

int zoomPercent()
{
    return current();
}

void setZoomPercent(int percent)
{
    apply(percent);
    QSettings().setValue(QStringLiteral("view/zoom"), current());
}

void applySavedZoom()
{
    const int saved = QSettings().value(QStringLiteral("view/zoom"), 100).toInt();
    if (saved != current())
        apply(saved);
}

void populateZoomMenu(QMenu* menu, QObject* owner)
{
    const auto add = [menu, owner](const QString& name, const QString& text,
                                   const QList<QKeySequence>& keys, int delta) {
        QAction* action = menu->addAction(text);
        action->setObjectName(name);
        action->setShortcuts(keys);
        QObject::connect(action, &QAction::triggered, owner,
                         [delta] { setZoomPercent(delta == 0 ? 100 : zoomPercent() + delta); });
        if (auto* widget = qobject_cast<QWidget*>(owner))
            widget->addAction(action); // its keys work wherever the focus is
    };
    add(QStringLiteral("zoomInAction"), QObject::tr("Zoom &in"),
        {QKeySequence(QStringLiteral("Ctrl+=")), QKeySequence(QStringLiteral("Ctrl++"))}, kStep);
    add(QStringLiteral("zoomOutAction"), QObject::tr("Zoom &out"),
        {QKeySequence(QStringLiteral("Ctrl+-"))}, -kStep);
    add(QStringLiteral("zoomResetAction"), QObject::tr("&Actual size"),
        {QKeySequence(QStringLiteral("Ctrl+0"))}, 0);
}

} // namespace inflight::ui
