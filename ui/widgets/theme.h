#pragma once

#include <QPalette>

#include <optional>

class QMenu;
class QObject;

namespace inflight::ui {

// Light, dark or the system's look, chosen in View ▸ Theme and remembered (QSettings
// "view/theme"). Every widget of the window reads its colours from the application palette, so a
// change applies at once; the charts follow it too.
enum class Theme { System, Light, Dark };

QPalette darkPalette();
QPalette lightPalette();

// Applies `theme` to the application (Light and Dark with the Fusion style, which follows any
// palette; System puts back what the application started with).
void applyTheme(Theme theme);
Theme currentTheme();
// The theme chosen in View ▸ Theme, if one was (none: the application's look stays).
std::optional<Theme> savedTheme();
// "system", "light", "dark" and back (unknown: System).
const char* themeName(Theme theme);
Theme themeNamed(const QString& name);

// Fills `menu` with the three choices (themeSystemAction, themeLightAction, themeDarkAction),
// checked as they apply; a choice is applied and saved.
void populateThemeMenu(QMenu* menu, QObject* owner);

} // namespace inflight::ui
