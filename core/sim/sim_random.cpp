#include "sim/sim_random.h"

#include "engine/receipt.h"

#include <cmath>

namespace inflight::sim {

namespace {

// SplitMix64's finaliser: spreads a seed's bits so that close seeds give unrelated streams.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::uint64_t SimRandom::seedFor(std::uint64_t simulationSeed, std::string_view actorName)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL; // FNV-1a
    for (const char c : actorName) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return mix(mix(simulationSeed) ^ hash);
}

double SimRandom::uniform()
{
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::uint64_t SimRandom::below(std::uint64_t n)
{
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        const std::uint64_t x = next();
        if (x < limit)
            return x % n;
    }
}

bool SimRandom::chance(double p)
{
    if (p <= 0.0)
        return false;
    if (p >= 1.0)
        return true;
    return uniform() < p;
}

double SimRandom::exponential(double mean)
{
    if (mean <= 0.0)
        return 0.0;
    return -mean * std::log1p(-uniform());
}

std::string SimRandom::uuid()
{
    const std::uint64_t high = next();
    const std::uint64_t low = next();
    return engine::formatMessageId(high, low);
}

} // namespace inflight::sim
