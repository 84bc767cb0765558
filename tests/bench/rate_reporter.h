#pragma once

// Ratios between benchmarks of one run: a console reporter that also keeps each benchmark's
// "messages/s" counter (of its single run, or the median of its repetitions), so that a binary can
// print "A / B" at the end from figures measured side by side.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace inflight::bench {

class RateReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override
    {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            const auto it = run.counters.find("messages/s");
            if (it == run.counters.end())
                continue;
            if (run.run_type == Run::RT_Iteration && !rates.contains(run.run_name.str()))
                rates[run.run_name.str()] = it->second.value;
            if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
                rates[run.run_name.str()] = it->second.value;
        }
    }

    // Prints "label: A / B messages/s = R% (target >= T%)" when both ran.
    void printRatio(const char* label, const std::string& a, const std::string& b,
                    double targetPercent) const
    {
        const auto x = rates.find(a);
        const auto y = rates.find(b);
        if (x == rates.end() || y == rates.end() || y->second <= 0)
            return;
        std::printf("%s: %.0f / %.0f messages/s = %.1f%% (target >= %.0f%%)\n", label, x->second,
                    y->second, 100.0 * x->second / y->second, targetPercent);
    }

    std::map<std::string, double> rates;
};

} // namespace inflight::bench
