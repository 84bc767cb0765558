#include "ui/widgets/theme.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace inflight::ui {

namespace {

const QString kSetting = QStringLiteral("view/theme");

struct Startup {
    QPalette palette;
    QString style;
};

// What the application looked like before any theme was applied: "System" returns to it.
const Startup& startup()
{
    static const Startup first{QApplication::palette(), QApplication::style()->name()};
    return first;
}

Theme g_current = Theme::System;

} // namespace

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x27, 0x2a));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x8c, 0x8c));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x3a, 0x3c, 0x40));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4c, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x42, 0x44, 0x48));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5c, 0x60));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return p;
}

QPalette lightPalette()
{
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) {
        const QPalette palette = fusion->standardPalette();
        delete fusion;
        return palette;
    }
    return QApplication::style()->standardPalette();
}

void applyTheme(Theme theme)
{
    const Startup& before = startup();
    if (theme == Theme::System) {
        if (QApplication::style()->name() != before.style)
            QApplication::setStyle(before.style);
        QApplication::setPalette(before.palette);
    } else {
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive))
            QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
    }
    g_current = theme;
}

Theme currentTheme()
{
    return g_current;
}

const char* themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light: return "light";
    case Theme::Dark: return "dark";
    case Theme::System: break;
    }
    return "system";
}

Theme themeNamed(const QString& name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

std::optional<Theme> savedTheme()
{
    const QSettings settings;
    if (!settings.contains(kSetting))
        return std::nullopt;
    return themeNamed(settings.value(kSetting).toString());
}

void populateThemeMenu(QMenu* menu, QObject* owner)
{
    startup(); // before the first change
    auto* group = new QActionGroup(owner);
    group->setExclusive(true);
    const auto add = [&](Theme theme, const QString& text, const QString& name) {
        QAction* action = menu->addAction(text);
        action->setObjectName(name);
        action->setCheckable(true);
        action->setChecked(currentTheme() == theme);
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, owner, [theme] {
            applyTheme(theme);
            QSettings().setValue(kSetting, QString::fromLatin1(themeName(theme)));
        });
    };
    add(Theme::System, QObject::tr("&System"), QStringLiteral("themeSystemAction"));
    add(Theme::Light, QObject::tr("&Light"), QStringLiteral("themeLightAction"));
    add(Theme::Dark, QObject::tr("&Dark"), QStringLiteral("themeDarkAction"));
}

} // namespace inflight::ui
