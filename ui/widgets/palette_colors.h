#pragma once

#include <QColor>
#include <QPalette>

namespace inflight::ui {

// True when the palette draws light text on a dark window.
inline bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

// The one hard-coded colour of the window: a warning orange-red that contrasts with both light
// and dark bases (darker on light palettes, lighter on dark ones).
inline QColor warningColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x8a, 0x65) : QColor(0xc6, 0x28, 0x28);
}

// `a` moved towards `b` by `amount` (0..1).
inline QColor blend(const QColor& a, const QColor& b, double amount)
{
    const auto mix = [amount](int x, int y) { return int(x + (y - x) * amount); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

} // namespace inflight::ui
