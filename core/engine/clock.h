#pragma once

#include <cstdint>
#include <functional>
#include <limits>

namespace inflight::engine {

// Engine time: milliseconds since the Unix epoch, as the services report timestamps.
using Millis = std::int64_t;

inline constexpr Millis kNoDeadline = std::numeric_limits<Millis>::max();
inline constexpr Millis kSecond = 1000;

// The one source of time for the engine. Monotonic: now() never goes backwards.
class Clock {
public:
    virtual ~Clock() = default;
    virtual Millis now() const = 0;
};

// A clock moved only by hand; drives the tests.
class ManualClock final : public Clock {
public:
    explicit ManualClock(Millis start = 1'700'000'000'000) : m_now(start) {}

    Millis now() const override { return m_now; }
    // Requires delta >= 0.
    void advance(Millis delta);
    // Requires t >= now().
    void set(Millis t);

private:
    Millis m_now;
};

// Engine time that follows a real-time source at a chosen speed and can be paused; drives the app.
// The real-time source is injected (the engine itself never reads the system clock).
class SimulatedClock final : public Clock {
public:
    using RealTimeSource = std::function<Millis()>;

    // Starts at speed 1 with engine time equal to `start`, running, or paused (then exactly at
    // `start`, however long the caller takes to look).
    SimulatedClock(RealTimeSource realNow, Millis start, bool paused = false);

    Millis now() const override;
    // What now() would answer, without answering it: for the session's own use (how far to serve
    // deadlines, how long to wait), so that a hold can still stand at a deadline before it.
    Millis peek() const;

    bool paused() const { return m_paused; }
    double speed() const { return m_speed; }

    void pause();
    void resume();
    // Requires speed > 0. Engine time is continuous across the change.
    void setSpeed(double speed);
    // Moves engine time forward by delta (>= 0), paused or not ("step +30 s").
    void step(Millis delta);
    // Real milliseconds until engine time reaches t at the current speed; 0 if already reached,
    // kNoDeadline while paused.
    Millis realDelayUntil(Millis t) const;
    // Holds engine time at t while the caller serves what fell due at t though real time has gone
    // past it (a timer that came late): now() answers the held time until release(), then follows
    // real time again, none of it lost. Never backward and never ahead of real time: the held time
    // is t clamped between the time last reported and the time real time gives. Returns it. Pause,
    // resume, speed and step end a hold.
    Millis holdAt(Millis t);
    void release() { m_held = false; }

private:
    void rebase();

    RealTimeSource m_realNow;
    Millis m_baseEngine;
    Millis m_baseReal;
    double m_speed = 1.0;
    bool m_paused = false;
    bool m_held = false;
    mutable Millis m_lastReported;
};

} // namespace inflight::engine
