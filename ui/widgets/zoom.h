#pragma once

class QMenu;
class QObject;

namespace inflight::ui {

// View ▸ Zoom: the whole window's text larger or smaller for a projector (Ctrl+= and Ctrl++ in,
// Ctrl+- out, Ctrl+0 back), in steps of 10% from 70% to 250%, remembered across runs. It scales
// the application's font; every widget that keeps the font it inherits follows.
void populateZoomMenu(QMenu* menu, QObject* owner);
// The zoom in percent now (100: the platform's font size).
int zoomPercent();
// Sets the zoom (clamped to 70..250) and remembers it.
void setZoomPercent(int percent);
// The remembered zoom, applied at start (MainWindow does it).
void applySavedZoom();

} // namespace inflight::ui
