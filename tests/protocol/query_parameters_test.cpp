// The Query protocol's flattened parameters read into the member tree (query_parameters.h), as
// JSON, for the shapes of spec §2.3 and the edge cases the tree of maps it replaced handled: any
// order of parameters, a name given twice (the last wins), indexes with spaces, a value beside
// parts below it, legacy unindexed lists, CreateQueue's `tags`, and the two faults.
#include "protocol/query_parameters.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace inflight::protocol {
namespace {

using Json = nlohmann::json;

// The parameters of a form without a fault; a failure, and none, for one with a fault.
QueryParameters parametersOf(std::string_view query, std::string_view body = {})
{
    auto read = readQueryParameters(query, body);
    if (!read) {
        ADD_FAILURE() << "fault " << int(read.error()) << ": " << query << " " << body;
        return {};
    }
    return std::move(read).value();
}

Json membersOf(std::string_view form, std::string_view body = {})
{
    const QueryParameters read = parametersOf(form, body);
    if (!read.tree)
        return Json();
    return read.tree->toJson(read.tree->root());
}

TEST(QueryParameters, aBatchInAnyOrderIsItsEntriesInIndexOrder)
{
    const std::string inOrder = "Action=DeleteMessageBatch&QueueUrl=q"
                                "&DeleteMessageBatchRequestEntry.1.Id=a"
                                "&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r%2Ba"
                                "&DeleteMessageBatchRequestEntry.2.Id=b"
                                "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=r+b"
                                "&DeleteMessageBatchRequestEntry.10.Id=j"
                                "&DeleteMessageBatchRequestEntry.10.ReceiptHandle=rj";
    const Json expected = Json::parse(R"({"Entries":[{"Id":"a","ReceiptHandle":"r+a"},)"
                                      R"({"Id":"b","ReceiptHandle":"r b"},)"
                                      R"({"Id":"j","ReceiptHandle":"rj"}],"QueueUrl":"q"})");
    EXPECT_EQ(membersOf(inOrder), expected);
    const std::string shuffled = "DeleteMessageBatchRequestEntry.10.ReceiptHandle=rj"
                                 "&DeleteMessageBatchRequestEntry.2.Id=b&QueueUrl=q"
                                 "&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r%2Ba"
                                 "&DeleteMessageBatchRequestEntry.10.Id=j&Action=DeleteMessageBatch"
                                 "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=r+b"
                                 "&DeleteMessageBatchRequestEntry.1.Id=a";
    EXPECT_EQ(membersOf(shuffled), expected);
    EXPECT_EQ(parametersOf(shuffled).action, "DeleteMessageBatch");
}

TEST(QueryParameters, theQueryStringComesBeforeTheBodyAndTheLastOfANameWins)
{
    const QueryParameters read = parametersOf(
        "Action=ListQueues&QueueNamePrefix=first&MaxResults=5",
        "QueueNamePrefix=second&Action=SendMessage&MaxResults=+7&QueueNamePrefix=last");
    EXPECT_EQ(read.action, "SendMessage");
    ASSERT_TRUE(read.tree);
    EXPECT_EQ(read.tree->toJson(read.tree->root()),
              Json::parse(R"({"MaxResults":" 7","QueueNamePrefix":"last"})"));
}

TEST(QueryParameters, indexesWithSpacesAreOneIndexAndAValueHidesThePartsBelowIt)
{
    EXPECT_EQ(membersOf("AttributeName.1=All&AttributeName.%201%20=Policy&AttributeName.2=Arn"),
              Json::parse(R"({"AttributeNames":["Policy","Arn"]})"));
    // `Foo=x` and `Foo.Bar=y`: Foo is the string x, as the tree of maps had it.
    EXPECT_EQ(membersOf("Foo.Bar=y&Foo=x"), Json::parse(R"({"Foo":"x"})"));
    // A list item with a value and parts: the value.
    EXPECT_EQ(membersOf("Foo.1=x&Foo.1.Bar=y&Foo.2.Bar=z"),
              Json::parse(R"({"Foo":["x",{"Bar":"z"}]})"));
}

TEST(QueryParameters, legacyUnindexedListsAndMapsAreListsOfOne)
{
    EXPECT_EQ(membersOf("AttributeName=All"), Json::parse(R"({"AttributeNames":["All"]})"));
    EXPECT_EQ(membersOf("Attribute.Name=DelaySeconds&Attribute.Value=3"),
              Json::parse(R"({"Attributes":{"DelaySeconds":"3"}})"));
}

TEST(QueryParameters, mapsKeepTheLaterItemOfAKeyAndLeaveOutItemsWithoutOne)
{
    EXPECT_EQ(membersOf("MessageAttribute.1.Name=color&MessageAttribute.1.Value.DataType=String"
                        "&MessageAttribute.1.Value.StringValue=red"
                        "&MessageAttribute.2.Value.StringValue=nameless"
                        "&MessageAttribute.3.Name=color&MessageAttribute.3.Value.DataType=String"
                        "&MessageAttribute.3.Value.StringValue=blue"
                        "&MessageAttribute.4.Name=size"),
              Json::parse(R"({"MessageAttributes":{"color":{"DataType":"String",)"
                          R"("StringValue":"blue"},"size":""}})"));
}

TEST(QueryParameters, createQueueTagsAreTheLowerCaseMemberAndTagQueuesAreNot)
{
    const std::string tags = "&Tag.1.Key=team&Tag.1.Value=core";
    QueryParameters read = parametersOf("Action=CreateQueue&QueueName=q" + tags);
    EXPECT_EQ(read.tree->toJson(read.tree->root()),
              Json::parse(R"({"QueueName":"q","tags":{"team":"core"}})"));
    read = parametersOf("Action=TagQueue&QueueUrl=u" + tags);
    EXPECT_EQ(read.tree->toJson(read.tree->root()),
              Json::parse(R"({"QueueUrl":"u","Tags":{"team":"core"}})"));
}

TEST(QueryParameters, twoListNamesForEntriesGiveTheLaterInNameOrder)
{
    EXPECT_EQ(
        membersOf("SendMessageBatchRequestEntry.1.Id=s&DeleteMessageBatchRequestEntry.1.Id=d"),
        Json::parse(R"({"Entries":[{"Id":"s"}]})"));
}

TEST(QueryParameters, manyDistinctNamesAreAllKept)
{
    // More names than the name table starts with: it grows.
    std::string form;
    Json expected = Json::object();
    for (int i = 0; i < 300; ++i) {
        const std::string name = "Name" + std::to_string(i * 7919 % 1000);
        form += (i ? "&" : "") + name + ".Part" + std::to_string(i) + "=v" + std::to_string(i);
        expected[name]["Part" + std::to_string(i)] = "v" + std::to_string(i);
    }
    EXPECT_EQ(membersOf(form), expected);
    // One name of sixteen distinct parts (the most there may be).
    EXPECT_EQ(
        membersOf("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=deep")["a"]["b"]["c"]["d"]["e"]["f"]["g"]["h"]
                                                         ["i"]["j"]["k"]["l"]["m"]["n"]["o"]["p"],
        "deep");
}

TEST(QueryParameters, faultsAreTooManyPartsAndTextThatIsNotUtf8)
{
    std::string deep = "x";
    for (int i = 0; i < kMaxNameSegments; ++i)
        deep += ".x";
    const auto tooDeep = readQueryParameters("Action=A&" + deep + "=1", {});
    ASSERT_FALSE(tooDeep);
    EXPECT_EQ(tooDeep.error(), QueryFault::TooManyParts);
    const auto notUtf8 = readQueryParameters("Action=A", "MessageBody=%FF");
    ASSERT_FALSE(notUtf8);
    EXPECT_EQ(notUtf8.error(), QueryFault::NotUtf8);
    EXPECT_TRUE(readQueryParameters("Action=A&MessageBody=%C3%A9", {}));
}

TEST(QueryParameters, aPlainNameAndAFlattenedMemberOfOneJsonNameGiveTheLaterInNameOrder)
{
    // "Attribute" sorts before "Attributes": the plain member, read second, wins.
    EXPECT_EQ(membersOf("Attributes=plain&Attribute.1.Name=A&Attribute.1.Value=1"),
              Json::parse(R"({"Attributes":"plain"})"));
    // "Tag" before "tags": CreateQueue's map of Tag.N is `tags`, replaced by the plain `tags`.
    const QueryParameters read
        = parametersOf("Action=CreateQueue&tags=plain&Tag.1.Key=k&Tag.1.Value=v");
    EXPECT_EQ(read.tree->toJson(read.tree->root()), Json::parse(R"({"tags":"plain"})"));
}

TEST(QueryParameters, emptyPartsHugeIndexesAndKeysWithoutAValue)
{
    EXPECT_EQ(membersOf("=x&a..b=y"), Json::parse(R"({"":"x","a":{"":{"b":"y"}}})"));
    // Past int64: a name, not an index.
    EXPECT_EQ(membersOf("List.99999999999999999999=x&List.1=y"), Json::parse(R"({"List":["y"]})"));
    EXPECT_EQ(membersOf("List.99999999999999999999=x"),
              Json::parse(R"({"List":{"99999999999999999999":"x"}})"));
    // A map key with parts below it but no value of its own: no entry.
    EXPECT_EQ(membersOf("Attribute.1.Name.x=1&Attribute.1.Value=v"),
              Json::parse(R"({"Attributes":{}})"));
}

TEST(QueryParameters, aFaultLeavesNoActionBehind)
{
    // The Action read before the fault viewed the tree's text: a fault is no parameters at all.
    const auto read
        = readQueryParameters("Action=SendMessage&a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q=1", {});
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error(), QueryFault::TooManyParts);
}

TEST(QueryParameters, fiftyThousandDistinctNamesAreRankedAndKept)
{
    // Names are ranked by sorting, not in a hash table a crafted form could flood.
    std::string form;
    for (int i = 0; i < 50000; ++i)
        form += (i ? "&n" : "n") + std::to_string((i * 7919) % 50000) + "=v";
    const QueryParameters read = parametersOf({}, form);
    ASSERT_TRUE(read.tree);
    const Json members = read.tree->toJson(read.tree->root());
    EXPECT_EQ(members.size(), 50000u);
    EXPECT_EQ(members.at("n49999"), "v");
}

TEST(QueryParameters, entriesWhoseMembersTakeTurnsAreReadWhole)
{
    // Names repeat at their depth in turns of two (a delete batch), of six (more than the recent
    // names a part is compared with), and one name among them comes back after the others.
    std::string form = "Action=SendMessageBatch&QueueUrl=q";
    Json entries = Json::array();
    const std::string names[]
        = {"MessageBody", "Id", "DelaySeconds", "MessageGroupId", "MessageDeduplicationId", "Zeta"};
    for (int entry = 1; entry <= 12; ++entry) {
        const int members = entry % 3 == 0 ? 2 : 6;
        Json expected = Json::object();
        for (int m = 0; m < members; ++m) {
            const std::string value = "v" + std::to_string(entry) + names[m];
            form += "&SendMessageBatchRequestEntry." + std::to_string(entry) + "." + names[m] + "="
                + value;
            expected[names[m]] = value;
        }
        // The first name again, after the rest: the later value wins.
        form += "&SendMessageBatchRequestEntry." + std::to_string(entry) + ".MessageBody=last";
        expected["MessageBody"] = "last";
        entries.push_back(expected);
    }
    EXPECT_EQ(membersOf(form), Json({{"Entries", entries}, {"QueueUrl", "q"}}));
}

// Every object's members are in key order, one of each (readers find them by halving): names that
// are prefixes of others, upper and lower case, digits and punctuation, empty parts and an index
// with a space, given in random order and some twice, with and without flattened members (renamed
// to their JSON names) beside them.
TEST(QueryParameters, everyObjectsMembersAreInKeyOrderWhateverTheFormsOrder)
{
    const std::string parts[] = {"a",
                                 "ab",
                                 "abc",
                                 "B",
                                 "b",
                                 "Id",
                                 "id",
                                 "I",
                                 "x_1",
                                 "x-1",
                                 "x.y",
                                 "ReceiptHandle",
                                 "Receipt",
                                 "Z",
                                 "_",
                                 "0a",
                                 "MessageAttributeX",
                                 "Attributes",
                                 "",
                                 " 2"};
    std::mt19937 random(8122026);
    for (int round = 0; round < 500; ++round) {
        std::string form;
        const int count = 1 + int(random() % 12);
        for (int i = 0; i < count; ++i) {
            const std::string& name = parts[random() % std::size(parts)];
            form += "&Entry." + std::to_string(1 + random() % 3) + "." + name + "=v";
            if (random() % 2 == 0)
                form += "&" + name + "=top";
        }
        if (round % 2 == 0)
            form += "&Attribute.1.Name=Policy&Attribute.1.Value=p&Tag.1.Key=k&Tag.1.Value=t"
                    "&MessageAttribute.1.Name=n&MessageAttribute.1.Value.DataType=String";
        const QueryParameters read = parametersOf({}, form);
        ASSERT_TRUE(read.tree) << form;
        const MemberTree& tree = *read.tree;
        std::vector<const MemberTree::Node*> objects = {&tree.root()};
        while (!objects.empty()) {
            const MemberTree::Node& object = *objects.back();
            objects.pop_back();
            const auto children = tree.children(object);
            for (std::size_t i = 0; i < children.size(); ++i) {
                if (object.kind == MemberTree::Kind::Object) {
                    if (i > 0) {
                        ASSERT_LT(children[i - 1].key, children[i].key) << form;
                    }
                    ASSERT_EQ(tree.find(object, children[i].key), &children[i]) << form;
                }
                if (children[i].kind == MemberTree::Kind::Object
                    || children[i].kind == MemberTree::Kind::Array)
                    objects.push_back(&children[i]);
            }
        }
    }
}

TEST(QueryParameters, anEmptyFormHasNoActionAndNoMembers)
{
    const QueryParameters read = parametersOf({}, {});
    EXPECT_TRUE(read.action.empty());
    ASSERT_TRUE(read.tree);
    EXPECT_EQ(read.tree->toJson(read.tree->root()), Json::object());
}

} // namespace
} // namespace inflight::protocol
