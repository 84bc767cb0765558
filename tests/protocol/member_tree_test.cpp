// The member tree both SQS codecs read requests into (member_tree.h): an object's members in key
// order with the last of a repeated key kept, as the std::map of the nlohmann tree it replaced
// kept them; text that stays where it is while the tree grows; and the requests the codecs make
// of it, read through SqsRequest.
#include "protocol/member_tree.h"
#include "protocol/sqs_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

namespace inflight::protocol {
namespace {

using Kind = MemberTree::Kind;

// An object at the root whose members are the given key → text pairs, in the order given.
MemberTree objectOf(const std::vector<std::pair<std::string, std::string>>& members)
{
    MemberTree tree;
    std::uint32_t child
        = tree.addChildren(0, Kind::Object, static_cast<std::uint32_t>(members.size()));
    for (const auto& [key, text] : members) {
        tree.node(child).key = tree.keep(key);
        tree.node(child).kind = Kind::String;
        tree.node(child).text = tree.keep(text);
        ++child;
    }
    tree.orderMembers(0);
    return tree;
}

// What std::map makes of the same pairs, assigning each in turn: key order, the last value kept.
std::map<std::string, std::string> lastWins(
    const std::vector<std::pair<std::string, std::string>>& members)
{
    std::map<std::string, std::string> map;
    for (const auto& [key, text] : members)
        map.insert_or_assign(key, text);
    return map;
}

void expectSameAs(const MemberTree& tree, const std::map<std::string, std::string>& expected)
{
    const auto members = tree.children(tree.root());
    ASSERT_EQ(members.size(), expected.size());
    auto it = expected.begin();
    for (const MemberTree::Node& member : members) {
        EXPECT_EQ(member.key, it->first);
        EXPECT_EQ(member.text, it->second) << member.key;
        const MemberTree::Node* found = tree.find(tree.root(), it->first);
        ASSERT_NE(found, nullptr) << it->first;
        EXPECT_EQ(found->text, it->second);
        ++it;
    }
}

TEST(MemberTree, aSmallObjectIsInKeyOrderWithTheLastOfARepeatedKey)
{
    const std::vector<std::pair<std::string, std::string>> members{{"QueueUrl", "u"},
                                                                   {"MessageBody", "first"},
                                                                   {"DelaySeconds", "5"},
                                                                   {"MessageBody", "second"},
                                                                   {"B", "b"},
                                                                   {"MessageBody", "last"},
                                                                   {"A", "a"}};
    const MemberTree tree = objectOf(members);
    expectSameAs(tree, lastWins(members));
    EXPECT_EQ(tree.find(tree.root(), "Missing"), nullptr);
    EXPECT_EQ(tree.find(tree.root(), ""), nullptr);
}

TEST(MemberTree, aLargeObjectIsOrderedAndFoundLikeTheMapItReplaces)
{
    // Past the insertion-ordered size and the linear look-up: 300 members in a shuffled order,
    // a third of them given two or three times.
    std::vector<std::pair<std::string, std::string>> members;
    for (int i = 0; i < 200; ++i)
        members.emplace_back("key" + std::to_string(i), "v" + std::to_string(i));
    for (int i = 0; i < 100; ++i)
        members.emplace_back("key" + std::to_string(i * 2), "again" + std::to_string(i));
    std::mt19937 random(15);
    std::shuffle(members.begin(), members.end(), random);
    const MemberTree tree = objectOf(members);
    expectSameAs(tree, lastWins(members));
    EXPECT_EQ(tree.find(tree.root(), "key200"), nullptr);
    EXPECT_EQ(tree.find(tree.root(), "kez"), nullptr);
    EXPECT_EQ(tree.find(tree.root(), "a"), nullptr);
}

TEST(MemberTree, theSurvivorOfARepeatedKeyKeepsItsOwnChildren)
{
    // {"m": {"x": "1"}, "a": "z", "m": {"y": "2", "z": "3"}}
    MemberTree tree;
    const std::uint32_t first = tree.addChildren(0, Kind::Object, 3);
    tree.node(first).key = "m";
    const std::uint32_t x = tree.addChildren(first, Kind::Object, 1);
    tree.node(x).key = "x";
    tree.node(x).kind = Kind::String;
    tree.node(x).text = tree.keep("1");
    tree.orderMembers(first);
    tree.node(first + 1).key = "a";
    tree.node(first + 1).kind = Kind::String;
    tree.node(first + 1).text = tree.keep("z");
    tree.node(first + 2).key = "m";
    const std::uint32_t y = tree.addChildren(first + 2, Kind::Object, 2);
    tree.node(y).key = "z";
    tree.node(y).kind = Kind::String;
    tree.node(y).text = tree.keep("3");
    tree.node(y + 1).key = "y";
    tree.node(y + 1).kind = Kind::String;
    tree.node(y + 1).text = tree.keep("2");
    tree.orderMembers(first + 2);
    tree.orderMembers(0);

    EXPECT_EQ(tree.toJson(tree.root()),
              nlohmann::json::parse(R"({"a":"z","m":{"y":"2","z":"3"}})"));
}

TEST(MemberTree, keptTextStaysWhereItIsAsMoreBlocksAreAdded)
{
    MemberTree tree(16); // a first block far too small
    std::vector<std::string_view> kept;
    std::vector<std::string> texts;
    for (int i = 0; i < 2000; ++i) {
        texts.push_back(std::string(std::size_t(i % 700), char('a' + i % 26)) + std::to_string(i));
        kept.push_back(tree.keep(texts.back()));
    }
    for (std::size_t i = 0; i < texts.size(); ++i)
        EXPECT_EQ(kept[i], texts[i]) << i;
    EXPECT_TRUE(tree.keep("").empty());
}

TEST(MemberTree, toJsonGivesEveryKindItsJsonType)
{
    MemberTree tree;
    const std::uint32_t at = tree.addChildren(0, Kind::Object, 7);
    const char* keys[] = {"n", "b", "i", "u", "f", "s", "a"};
    for (int i = 0; i < 7; ++i)
        tree.node(at + std::uint32_t(i)).key = keys[i];
    tree.node(at + 1).kind = Kind::Boolean;
    tree.node(at + 1).boolean = true;
    tree.node(at + 2).kind = Kind::Integer;
    tree.node(at + 2).integer = -5;
    tree.node(at + 3).kind = Kind::Unsigned;
    tree.node(at + 3).unsignedInteger = 18446744073709551615ULL;
    tree.node(at + 4).kind = Kind::Float;
    tree.node(at + 4).real = 2.5;
    tree.node(at + 5).kind = Kind::String;
    tree.node(at + 5).text = tree.keep("text");
    const std::uint32_t items = tree.addChildren(at + 6, Kind::Array, 2);
    tree.node(items).kind = Kind::String;
    tree.node(items).text = tree.keep("x");
    tree.orderMembers(0);
    EXPECT_EQ(tree.toJson(tree.root()).dump(),
              R"({"a":["x",null],"b":true,"f":2.5,"i":-5,"n":null,"s":"text",)"
              R"("u":18446744073709551615})");
}

HttpRequest jsonRequest(const QByteArray& action, const QByteArray& body)
{
    HttpRequest request;
    request.method = "POST";
    request.path = "/";
    request.headers.append({QByteArray("X-Amz-Target"), "AmazonSQS." + action});
    request.headers.append({QByteArray("Content-Type"), QByteArray("application/x-amz-json-1.0")});
    request.body = body;
    return request;
}

HttpRequest queryRequest(const QByteArray& body)
{
    HttpRequest request;
    request.method = "POST";
    request.path = "/";
    request.headers.append(
        {QByteArray("Content-Type"), QByteArray("application/x-www-form-urlencoded")});
    request.body = body;
    return request;
}

TEST(MemberTree, aJsonRequestOfManyAttributesReadsLikeTheMapOfThem)
{
    // Twenty attributes given in reverse order, one of them twice: the map of them, the last
    // given kept.
    QByteArray attributes;
    for (int i = 19; i >= 0; --i)
        attributes += "\"a" + QByteArray::number(i) + R"(":{"DataType":"String","StringValue":"v)"
            + QByteArray::number(i) + "\"},";
    attributes += R"("a7":{"DataType":"Number","StringValue":"70"})";
    const DecodedSqsRequest decoded = json::decodeRequest(
        jsonRequest("SendMessage",
                    R"({"QueueUrl":"http://h/1/q","MessageAttributes":{)" + attributes
                        + R"(},"MessageBody":"b","MessageBody":"last"})"));
    ASSERT_TRUE(decoded);
    const SqsRequest& request = *decoded;
    EXPECT_EQ(request.text("MessageBody"), std::optional<std::string_view>("last"));
    EXPECT_EQ(request.text("QueueUrl"), std::optional<std::string_view>("http://h/1/q"));
    EXPECT_EQ(request.text("Missing"), std::nullopt);
    const auto read = request.messageAttributes("MessageAttributes");
    ASSERT_TRUE(read);
    ASSERT_EQ(read->size(), 20u);
    for (int i = 0; i < 20; ++i) {
        const auto& attribute = read->at("a" + std::to_string(i));
        EXPECT_EQ(attribute.dataType, i == 7 ? "Number" : "String");
        EXPECT_EQ(attribute.stringValue, i == 7 ? "70" : "v" + std::to_string(i));
    }
}

TEST(MemberTree, aJsonShapeMismatchIsReportedForTheFirstMemberInKeyOrder)
{
    const DecodedSqsRequest decoded = json::decodeRequest(
        jsonRequest("SendMessage", R"({"QueueUrl":5,"MessageBody":"m","DelaySeconds":true})"));
    ASSERT_FALSE(decoded);
    EXPECT_TRUE(decoded.error().message.contains(QStringLiteral("DelaySeconds")))
        << decoded.error().message.toStdString();
}

TEST(MemberTree, aQueryMapKeyGivenTwiceKeepsItsLaterItem)
{
    const DecodedSqsRequest decoded = query::decodeRequest(
        queryRequest("Action=SetQueueAttributes&QueueUrl=http%3A%2F%2Fh%2F1%2Fq"
                     "&Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=10"
                     "&Attribute.2.Name=DelaySeconds&Attribute.2.Value=3"
                     "&Attribute.3.Name=VisibilityTimeout&Attribute.3.Value=40"
                     "&Attribute.4.Value=no-name"));
    ASSERT_TRUE(decoded);
    const SqsRequest& request = *decoded;
    EXPECT_EQ(request.stringMap("Attributes"),
              (engine::StringMap{{"DelaySeconds", "3"}, {"VisibilityTimeout", "40"}}));
    EXPECT_EQ(request.text("QueueUrl"), std::optional<std::string_view>("http://h/1/q"));
    EXPECT_EQ(
        request.membersJson(),
        nlohmann::json::parse(R"({"Attributes":{"DelaySeconds":"3","VisibilityTimeout":"40"},)"
                              R"("QueueUrl":"http://h/1/q"})"));
}

TEST(MemberTree, queryBatchEntriesAreListedInIndexOrderAndSeeOnlyTheirOwnMembers)
{
    const DecodedSqsRequest decoded
        = query::decodeRequest(queryRequest("Action=DeleteMessageBatch&QueueUrl=q"
                                            "&DeleteMessageBatchRequestEntry.10.Id=ten"
                                            "&DeleteMessageBatchRequestEntry.10.ReceiptHandle=r10"
                                            "&DeleteMessageBatchRequestEntry.2.Id=two"
                                            "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=r2"));
    ASSERT_TRUE(decoded);
    const SqsRequest& request = *decoded;
    const std::vector<SqsRequest> entries = request.entries("Entries");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].string("Id"), "two");
    EXPECT_EQ(entries[0].string("ReceiptHandle"), "r2");
    EXPECT_EQ(entries[1].string("Id"), "ten");
    EXPECT_FALSE(entries[1].has("QueueUrl"));
}

} // namespace
} // namespace inflight::protocol
