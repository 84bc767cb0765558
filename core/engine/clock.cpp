#include "engine/clock.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace inflight::engine {

void ManualClock::advance(Millis delta)
{
    assert(delta >= 0);
    m_now += delta;
}

void ManualClock::set(Millis t)
{
    assert(t >= m_now);
    m_now = t;
}

SimulatedClock::SimulatedClock(RealTimeSource realNow, Millis start, bool paused)
    : m_realNow(std::move(realNow)),
      m_baseEngine(start),
      m_baseReal(m_realNow()),
      m_paused(paused),
      m_lastReported(start)
{
}

Millis SimulatedClock::peek() const
{
    if (m_held)
        return m_lastReported;
    Millis t = m_baseEngine;
    if (!m_paused) {
        const Millis real = m_realNow() - m_baseReal;
        t += static_cast<Millis>(std::floor(static_cast<double>(real) * m_speed));
    }
    // Monotonic even if the real source stutters.
    return std::max(m_lastReported, t);
}

Millis SimulatedClock::now() const
{
    m_lastReported = peek();
    return m_lastReported;
}

void SimulatedClock::rebase()
{
    m_held = false; // a change of course ends a hold
    m_baseEngine = now();
    m_baseReal = m_realNow();
}

void SimulatedClock::pause()
{
    if (m_paused)
        return;
    rebase();
    m_paused = true;
}

void SimulatedClock::resume()
{
    m_held = false;
    if (!m_paused)
        return;
    m_baseReal = m_realNow();
    m_paused = false;
}

void SimulatedClock::setSpeed(double speed)
{
    assert(speed > 0);
    rebase();
    m_speed = speed;
}

void SimulatedClock::step(Millis delta)
{
    assert(delta >= 0);
    rebase();
    m_baseEngine += delta;
    m_lastReported = std::max(m_lastReported, m_baseEngine);
}

Millis SimulatedClock::holdAt(Millis t)
{
    m_held = false;
    m_lastReported = std::clamp(t, m_lastReported, peek());
    m_held = true;
    return m_lastReported;
}

Millis SimulatedClock::realDelayUntil(Millis t) const
{
    const Millis current = peek();
    if (t <= current)
        return 0;
    if (m_paused || t == kNoDeadline)
        return kNoDeadline;
    const double real = std::ceil(static_cast<double>(t - current) / m_speed);
    return real >= static_cast<double>(kNoDeadline) ? kNoDeadline : static_cast<Millis>(real);
}

} // namespace inflight::engine
