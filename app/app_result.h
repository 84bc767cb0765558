#pragma once

#include "engine/error.h"

#include <QString>

namespace inflight::app {

// The app's calls fail with a sentence for the user, in the engine's Result shape.
template <class T>
using Result = engine::Result<T, QString>;
using Status = Result<engine::Done>;

} // namespace inflight::app
