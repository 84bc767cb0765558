#pragma once

class QSpinBox;

namespace inflight::ui {

// Keeps a seconds spin box readable for people: its suffix says " s (4 days)", " s (12 h)",
// " s (1 min 30 s)" as the value changes; under a minute it is just " s".
void showSecondsInWords(QSpinBox* box);
// The same for a byte count: " bytes (256 KiB)".
void showBytesInWords(QSpinBox* box);

} // namespace inflight::ui
