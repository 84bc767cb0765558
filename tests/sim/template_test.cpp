// Message templates (message_template.h), the seeded random stream (sim_random.h) and engine
// time as ISO 8601 text (iso_time.h).
#include "sim/iso_time.h"
#include "sim/message_template.h"
#include "sim/sim_random.h"

#include <gtest/gtest.h>

#include <set>

namespace inflight::sim {
namespace {

std::string render(std::string_view text, std::int64_t n = 7, engine::Millis time = 0)
{
    auto compiled = MessageTemplate::compile(text);
    EXPECT_TRUE(compiled.ok()) << (compiled.ok() ? "" : compiled.error().message);
    SimRandom random(1);
    return compiled.ok() ? compiled->render(n, time, random) : std::string();
}

TEST(MessageTemplate, placeholdersAreReplacedAndOtherBracesAreText)
{
    EXPECT_EQ(render("order {n}"), "order 7");
    EXPECT_EQ(render("customer-{n%5}"), "customer-2");
    EXPECT_EQ(render(R"({"id": {n}, "nested": {"a": [1, {}]}})"),
              R"({"id": 7, "nested": {"a": [1, {}]}})");
    EXPECT_EQ(render("{time}", 1, 1'714'554'000'250), "2024-05-01T09:00:00.250Z");
    EXPECT_EQ(render("{choice:only}"), "only");
    EXPECT_EQ(render("{N} {n x} {n%} {n%2 }"), "{N} {n x} {n%} {n%2 }");
    EXPECT_TRUE(MessageTemplate::compile("plain").value().isConstant());
    EXPECT_FALSE(MessageTemplate::compile("{n}").value().isConstant());
}

TEST(MessageTemplate, choicesAreUniform)
{
    auto compiled = MessageTemplate::compile("{choice:a|b|c|d}");
    ASSERT_TRUE(compiled.ok());
    SimRandom random(5);
    std::map<std::string, int> counts;
    for (int i = 0; i < 4'000; ++i)
        ++counts[compiled->render(i, 0, random)];
    ASSERT_EQ(counts.size(), 4u);
    for (const auto& [choice, count] : counts)
        EXPECT_NEAR(count, 1'000, 120) << choice;
}

TEST(MessageTemplate, unknownPlaceholdersAreRefusedWhereTheyStart)
{
    for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
             {"x {nn}", "unknown placeholder {nn} at character 3"},
             {"{uuid%3}", "unknown placeholder {uuid%3} at character 1"},
             {"{n%0}", "the modulus must be a whole number from 1 in {n%0} at character 1"},
             {"{time:x}", "unknown placeholder {time:x}"},
             {"{choice}", "unknown placeholder {choice}"},
         }) {
        auto compiled = MessageTemplate::compile(text);
        ASSERT_FALSE(compiled.ok()) << text;
        EXPECT_NE(compiled.error().message.find(message), std::string::npos)
            << compiled.error().message;
    }
}

TEST(SimRandom, streamsDependOnSeedAndNameOnly)
{
    EXPECT_EQ(SimRandom::seedFor(1, "worker"), SimRandom::seedFor(1, "worker"));
    EXPECT_NE(SimRandom::seedFor(1, "worker"), SimRandom::seedFor(2, "worker"));
    EXPECT_NE(SimRandom::seedFor(1, "worker"), SimRandom::seedFor(1, "worker2"));
    // std::mt19937_64's 10000th output is fixed by the standard.
    SimRandom random(5489);
    std::uint64_t x = 0;
    for (int i = 0; i < 10'000; ++i)
        x = random.next();
    EXPECT_EQ(x, 9'981'545'732'273'789'042ULL);
}

TEST(SimRandom, drawsStayInTheirRanges)
{
    SimRandom random(3);
    std::set<std::uint64_t> seen;
    double sum = 0;
    for (int i = 0; i < 10'000; ++i) {
        const double u = random.uniform();
        EXPECT_GE(u, 0.0);
        EXPECT_LT(u, 1.0);
        const auto k = random.below(6);
        EXPECT_LT(k, 6u);
        seen.insert(k);
        sum += random.exponential(2.0);
    }
    EXPECT_EQ(seen.size(), 6u);
    EXPECT_NEAR(sum / 10'000, 2.0, 0.1);
    EXPECT_FALSE(random.chance(0.0));
    EXPECT_TRUE(random.chance(1.0));
    const std::string uuid = random.uuid();
    ASSERT_EQ(uuid.size(), 36u);
    EXPECT_EQ(uuid[8], '-');
    EXPECT_EQ(uuid[14], '4');
    EXPECT_NE(std::string("89ab").find(uuid[19]), std::string::npos);
}

TEST(IsoTime, readsAndWritesUtcAndOffsets)
{
    EXPECT_EQ(formatIsoTime(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(formatIsoTime(951'782'400'000), "2000-02-29T00:00:00.000Z");
    EXPECT_EQ(parseIsoTime("2024-05-01T09:00:00Z"), 1'714'554'000'000);
    EXPECT_EQ(parseIsoTime("2024-05-01T09:00:00.5Z"), 1'714'554'000'500);
    EXPECT_EQ(parseIsoTime("2024-05-01T11:00:00+02:00"), 1'714'554'000'000);
    EXPECT_EQ(parseIsoTime("2024-05-01T04:30:00-04:30"), 1'714'554'000'000);
    for (const char* bad :
         {"2024-05-01", "2024-02-30T00:00:00Z", "2024-05-01T09:00:00", "2024-05-01T25:00:00Z",
          "1969-12-31T23:59:59Z", "2024-05-01T09:00:00Zx"})
        EXPECT_FALSE(parseIsoTime(bad)) << bad;
    for (engine::Millis t : {0LL, 1'714'554'000'250LL, 4'102'444'799'999LL})
        EXPECT_EQ(parseIsoTime(formatIsoTime(t)), t);
}

} // namespace
} // namespace inflight::sim
