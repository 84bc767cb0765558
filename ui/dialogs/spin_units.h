#pragma once

#include <QString>

#include <optional>

class QSpinBox;
class QWidget;

namespace inflight::ui {

// Keeps a seconds spin box readable for people: its suffix says " s (4 days)", " s (12 h)",
// " s (1 min 30 s)" as the value changes; under a minute it is just " s".
void showSecondsInWords(QSpinBox* box);
// The same for a byte count: " bytes (256 KiB)".
void showBytesInWords(QSpinBox* box);

// The service's limits for what `box` holds (`what`: "Visibility timeout"). The box still takes
// whatever number is typed (up to 9 digits): a spin box that turned 50000 into 5000 or 0 back into
// 3 edited the user's input without a word. A value past the limits is named instead — see
// valueOutOfLimits — and the dialog refuses it in words.
void setLimits(QSpinBox* box, int low, int high, const QString& what);
struct LimitProblem {
    QSpinBox* box = nullptr;
    QString text; // "Visibility timeout: 0 to 43,200 s (12 h); 50,000 is past that."
};
// The first visible spin box under `parent` whose value is past its limits (setLimits).
std::optional<LimitProblem> valueOutOfLimits(const QWidget* parent);

} // namespace inflight::ui
