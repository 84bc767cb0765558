#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace inflight::sim {

// The one source of randomness of the simulation. std::mt19937_64's output is fixed by the
// standard, and every distribution is computed here (the standard library's distributions differ
// between implementations), so one seed gives the same draws everywhere.
class SimRandom {
public:
    explicit SimRandom(std::uint64_t seed) : m_engine(seed) {}

    // The seed of one actor's stream: the simulation's seed mixed with the actor's name, so that
    // an actor draws the same numbers whatever other actors exist or in which order they came.
    static std::uint64_t seedFor(std::uint64_t simulationSeed, std::string_view actorName);

    std::uint64_t next() { return m_engine(); }
    // Uniform in [0, 1), 53 bits.
    double uniform();
    // Uniform in [0, n); requires n > 0. Unbiased (rejection).
    std::uint64_t below(std::uint64_t n);
    // True with probability p (p <= 0: never, p >= 1: always, and no draw is spent then).
    bool chance(double p);
    // Exponentially distributed with the given mean (inverse transform); mean <= 0 gives 0.
    double exponential(double mean);
    // A version 4 UUID in its lower-case text form, from two draws.
    std::string uuid();

private:
    std::mt19937_64 m_engine;
};

} // namespace inflight::sim
