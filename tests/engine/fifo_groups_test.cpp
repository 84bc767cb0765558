// FifoGroups: a FIFO queue's groups by id, against a plain map doing the same.
#include "engine/internal/fifo_groups.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>

using namespace inflight::engine;

TEST(FifoGroups, makesAGroupOnceAndFindsItByIdUntilErased)
{
    FifoGroups groups;
    EXPECT_EQ(groups.find("a"), nullptr);
    FifoGroup& a = groups.findOrCreate("a");
    EXPECT_EQ(a.id, "a");
    a.count = 3;
    EXPECT_EQ(&groups.findOrCreate("a"), &a); // the same group, not a new one
    EXPECT_EQ(groups.find("a"), &a);
    EXPECT_EQ(groups.find(""), nullptr);
    FifoGroup& empty = groups.findOrCreate(""); // the empty id is an id like any other
    EXPECT_EQ(groups.find(""), &empty);
    EXPECT_EQ(groups.size(), 2u);
    groups.erase(a);
    EXPECT_EQ(groups.find("a"), nullptr);
    EXPECT_EQ(groups.find(""), &empty);
    EXPECT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups.findOrCreate("a").count, 0); // made again, new
    groups.clear();
    EXPECT_TRUE(groups.empty());
    EXPECT_EQ(groups.find(""), nullptr);
}

// Random makes, look-ups and erases through growth: every id is found exactly while the model
// holds it, each group keeps its address (messages point at it) and the list holds each once.
TEST(FifoGroups, agreesWithAMapThroughRandomMakesAndErasesAcrossGrowth)
{
    FifoGroups groups;
    std::map<std::string, FifoGroup*> model;
    std::mt19937 random(15);
    for (int step = 0; step < 200'000; ++step) {
        // Ids from a range that grows, so the index grows past several sizes while some erase.
        const int range = 10 + step / 50;
        const std::string id = "g-" + std::to_string(random() % range);
        const int what = static_cast<int>(random() % 10);
        if (what < 5) {
            FifoGroup& g = groups.findOrCreate(id);
            auto [it, made] = model.emplace(id, &g);
            ASSERT_EQ(it->second, &g) << id << " moved or was made twice at step " << step;
            ASSERT_EQ(g.id, id);
        } else if (what < 8) {
            auto it = model.find(id);
            FifoGroup* found = groups.find(id);
            ASSERT_EQ(found, it == model.end() ? nullptr : it->second) << id << " at " << step;
        } else if (auto it = model.find(id); it != model.end()) {
            groups.erase(*it->second);
            model.erase(it);
            ASSERT_EQ(groups.find(id), nullptr);
        }
        ASSERT_EQ(groups.size(), model.size());
    }
    std::set<const FifoGroup*> listed;
    for (const auto& g : groups) {
        EXPECT_TRUE(listed.insert(g.get()).second);
        EXPECT_EQ(model.at(g->id), g.get());
    }
    EXPECT_EQ(listed.size(), model.size());
    for (const auto& [id, g] : model)
        EXPECT_EQ(groups.find(id), g);
}
