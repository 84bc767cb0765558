// Flattened Query parameters → member tree, in one pass over the decoded form: the names are split
// into their parts and the parameters sorted by them, so that each node of the tree is a run of
// parameters sharing a prefix. The text stays where the form was decoded to, in the tree's own
// storage: no string, map node or copy per parameter.
#include "protocol/query_parameters.h"

#include "protocol/form.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <vector>

namespace inflight::protocol {

namespace {

using Kind = MemberTree::Kind;

// A segment that is a list index: decimal digits (ASCII spaces around them allowed, no sign), in
// range. Digit-only parts are 1-based list indexes; the rest are member names.
std::optional<std::int64_t> indexOf(std::string_view segment)
{
    if (!segment.empty() && segment.front() > '9')
        return std::nullopt; // a name (a letter first): neither a space nor a digit
    const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    while (!segment.empty() && space(segment.front()))
        segment.remove_prefix(1);
    while (!segment.empty() && space(segment.back()))
        segment.remove_suffix(1);
    std::int64_t index = 0;
    const char* end = segment.data() + segment.size();
    if (segment.empty() || segment.front() < '0' || segment.front() > '9')
        return std::nullopt;
    const auto [stop, failure] = std::from_chars(segment.data(), end, index);
    if (failure != std::errc() || stop != end)
        return std::nullopt;
    return index;
}

enum class MemberKind { List, Map };

struct QueryMember {
    std::string_view query; // flattened name in the Query protocol
    std::string_view json;  // member name in the JSON protocol
    MemberKind kind;
    std::string_view keyField; // maps: the field holding the key ("Name" or "Key")
};

// Spec §2.3. Every member not listed keeps its name and is a scalar or a structure.
constexpr QueryMember kQueryMembers[] = {
    {"Attribute", "Attributes", MemberKind::Map, "Name"},
    {"Tag", "Tags", MemberKind::Map, "Key"},
    {"TagKey", "TagKeys", MemberKind::List, {}},
    {"AttributeName", "AttributeNames", MemberKind::List, {}},
    {"MessageSystemAttributeName", "MessageSystemAttributeNames", MemberKind::List, {}},
    {"MessageAttributeName", "MessageAttributeNames", MemberKind::List, {}},
    {"MessageAttribute", "MessageAttributes", MemberKind::Map, "Name"},
    {"MessageSystemAttribute", "MessageSystemAttributes", MemberKind::Map, "Name"},
    {"SendMessageBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"DeleteMessageBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"ChangeMessageVisibilityBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"AWSAccountId", "AWSAccountIds", MemberKind::List, {}},
    {"ActionName", "Actions", MemberKind::List, {}},
};

// kQueryMembers by the length of their Query names, which no two share: a name is compared with
// one of them at most (a batch's entries ask for each of their members' names).
constexpr std::size_t kLongestQueryMember = 40;
constexpr auto kQueryMemberByLength = [] {
    std::array<std::int8_t, kLongestQueryMember + 1> byLength{};
    byLength.fill(-1);
    for (std::size_t i = 0; i < std::size(kQueryMembers); ++i)
        byLength.at(kQueryMembers[i].query.size()) = static_cast<std::int8_t>(i);
    return byLength;
}();
static_assert(std::count_if(kQueryMemberByLength.begin(), kQueryMemberByLength.end(),
                            [](std::int8_t i) { return i >= 0; })
                  == std::size(kQueryMembers),
              "two Query member names of one length: find them some other way");

const QueryMember* findQueryMember(std::string_view name)
{
    if (name.size() > kLongestQueryMember || kQueryMemberByLength[name.size()] < 0)
        return nullptr;
    const QueryMember& member = kQueryMembers[kQueryMemberByLength[name.size()]];
    return member.query == name ? &member : nullptr;
}

// One part of a parameter's name. `key` orders the parts and tells equal ones: an index is its
// number (" 1" and "1" are one); a name is 2^63 + its rank among the distinct names of the form
// by their bytes, so indexes come first and parts compare as integers, not as text.
struct Segment {
    std::string_view text;
    std::uint64_t key = 0;
    bool isIndex() const { return key < kNameKeys; }
    static constexpr std::uint64_t kNameKeys = std::uint64_t(1) << 63;
};

int compareSegments(const Segment& a, const Segment& b)
{
    return a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);
}

// Gives each name part its key: 2^63 + the rank of its text among the names' texts. The names
// are sorted (O(n log n) whatever the form, unlike a hash table a form could flood); a part equal
// to one of the last few distinct ones at its depth (a list's name, again with each of its items'
// parts) shares that part's key without taking part in the sort.
void rankNames(std::vector<Segment>& segments, const std::vector<std::uint32_t>& sameAs)
{
    std::vector<std::uint32_t> names;
    for (std::uint32_t i = 0; i < segments.size(); ++i) {
        if (!segments[i].isIndex() && sameAs[i] == i)
            names.push_back(i);
    }
    std::sort(names.begin(), names.end(), [&segments](std::uint32_t a, std::uint32_t b) {
        return segments[a].text < segments[b].text;
    });
    std::uint64_t rank = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0 && segments[names[i]].text != segments[names[i - 1]].text)
            ++rank;
        segments[names[i]].key = Segment::kNameKeys + rank;
    }
    for (std::uint32_t i = 0; i < segments.size(); ++i) {
        if (!segments[i].isIndex() && sameAs[i] != i)
            segments[i].key = segments[sameAs[i]].key; // an earlier part: ranked already
    }
}

// One parameter: its name's parts (a run of Parameters::segments) and its value. `order`: its
// place in the form, which decides between two of the same name (the later wins).
struct Parameter {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    std::uint32_t order = 0;
    std::string_view value;
};

// The parameters whose names share their first `depth` parts: a node of the tree. Those named
// exactly so (the node's own value) come first, then its indexed children, then its named ones,
// each child a run of its own.
struct Group {
    const Parameter* begin = nullptr;
    const Parameter* end = nullptr;
    std::uint32_t depth = 0;
};

class TreeReader {
public:
    TreeReader(std::vector<Segment> segments, std::vector<Parameter> parameters,
               std::string_view action, MemberTree& tree)
        : m_segments(std::move(segments)),
          m_parameters(std::move(parameters)),
          m_action(action),
          m_tree(tree)
    {
        const auto before = [this](const Parameter& a, const Parameter& b) {
            const std::uint32_t shared = std::min(a.count, b.count);
            for (std::uint32_t i = 0; i < shared; ++i) {
                if (const int order = compareSegments(segment(a, i), segment(b, i)))
                    return order < 0;
            }
            if (a.count != b.count)
                return a.count < b.count;
            return a.order < b.order;
        };
        // A form comes nearly in order (a list's items one after the other, a few scalars before
        // them): inserting each where it goes takes a compare or three. Large forms are sorted.
        if (m_parameters.size() > 64) {
            std::sort(m_parameters.begin(), m_parameters.end(), before);
            return;
        }
        for (std::size_t i = 1; i < m_parameters.size(); ++i) {
            if (!before(m_parameters[i], m_parameters[i - 1]))
                continue;
            const Parameter moving = m_parameters[i];
            std::size_t to = i;
            do {
                m_parameters[to] = m_parameters[to - 1];
                --to;
            } while (to > 0 && before(moving, m_parameters[to - 1]));
            m_parameters[to] = moving;
        }
    }

    void readRoot()
    {
        readStructure(Group{m_parameters.data(), m_parameters.data() + m_parameters.size(), 0}, 0);
    }

private:
    const Segment& segment(const Parameter& parameter, std::uint32_t at) const
    {
        return m_segments[parameter.first + at];
    }

    static std::optional<std::string_view> ownValue(const Group& group)
    {
        std::optional<std::string_view> value;
        for (const Parameter* p = group.begin; p < group.end && p->count == group.depth; ++p)
            value = p->value; // the last given
        return value;
    }

    // f(segment, child) for each child of the group, indexed ones first, in order.
    template <class F>
    void forEachChild(const Group& group, F f) const
    {
        const Parameter* p = group.begin;
        while (p < group.end && p->count == group.depth)
            ++p;
        while (p < group.end) {
            const Segment& part = segment(*p, group.depth);
            const Parameter* q = p + 1;
            while (q < group.end && compareSegments(segment(*q, group.depth), part) == 0)
                ++q;
            f(part, Group{p, q, group.depth + 1});
            p = q;
        }
    }

    std::pair<std::uint32_t, std::uint32_t> childCounts(const Group& group) const
    {
        std::uint32_t indexed = 0;
        std::uint32_t named = 0;
        forEachChild(group, [&](const Segment& part, const Group&) {
            ++(part.isIndex() ? indexed : named);
        });
        return {indexed, named};
    }

    std::optional<Group> namedChild(const Group& group, std::string_view name) const
    {
        std::optional<Group> found;
        forEachChild(group, [&](const Segment& part, const Group& child) {
            if (!part.isIndex() && part.text == name)
                found = child;
        });
        return found;
    }

    // A flattened list's items in index order; an unindexed member (legacy
    // `AttributeName=All`, `Attribute.Name=…`) counts as a list of one.
    template <class F>
    void forEachItem(const Group& group, F f) const
    {
        const auto [indexed, named] = childCounts(group);
        if (indexed == 0) {
            if (ownValue(group) || named > 0)
                f(group);
            return;
        }
        forEachChild(group, [&](const Segment& part, const Group& child) {
            if (part.isIndex())
                f(child);
        });
    }

    void readPlainValue(const Group& group, std::uint32_t at)
    {
        if (const auto value = ownValue(group)) {
            MemberTree::Node& leaf = m_tree.node(at);
            leaf.kind = Kind::String;
            leaf.text = *value;
            return;
        }
        const auto [indexed, named] = childCounts(group);
        if (indexed > 0) {
            std::uint32_t child = m_tree.addChildren(at, Kind::Array, indexed);
            forEachChild(group, [&](const Segment& part, const Group& item) {
                if (part.isIndex())
                    readPlainValue(item, child++);
            });
            return;
        }
        readStructure(group, at, named);
    }

    void readMemberValue(const QueryMember& member, const Group& group, std::uint32_t at)
    {
        if (member.kind == MemberKind::List) {
            // forEachItem's items, counted once: the indexed children, or the group itself.
            const auto [indexed, named] = childCounts(group);
            if (indexed == 0) {
                const bool one = ownValue(group) || named > 0;
                const std::uint32_t child = m_tree.addChildren(at, Kind::Array, one ? 1 : 0);
                if (one)
                    readPlainValue(group, child);
                return;
            }
            std::uint32_t child = m_tree.addChildren(at, Kind::Array, indexed);
            forEachChild(group, [&](const Segment& part, const Group& item) {
                if (part.isIndex())
                    readPlainValue(item, child++);
            });
            return;
        }
        // A map: each item's key field names its entry, its `Value` (a string, or a structure for
        // message attributes) is the entry's value; an item without a key is left out, and a key
        // given twice keeps its later item.
        const auto keyOf = [&](const Group& item) -> std::optional<std::string_view> {
            const std::optional<Group> key = namedChild(item, member.keyField);
            return key ? ownValue(*key) : std::nullopt;
        };
        std::uint32_t entries = 0;
        forEachItem(group, [&](const Group& item) { entries += keyOf(item) ? 1 : 0; });
        std::uint32_t child = m_tree.addChildren(at, Kind::Object, entries);
        forEachItem(group, [&](const Group& item) {
            const std::optional<std::string_view> key = keyOf(item);
            if (!key)
                return;
            m_tree.node(child).key = *key;
            if (const std::optional<Group> value = namedChild(item, "Value"))
                readPlainValue(*value, child);
            else
                m_tree.node(child).kind = Kind::String; // ""
            ++child;
        });
        m_tree.orderMembers(at);
    }

    void readStructure(const Group& group, std::uint32_t at)
    {
        readStructure(group, at, childCounts(group).second);
    }

    // `named`: the group's named children (childCounts), counted already.
    void readStructure(const Group& group, std::uint32_t at, std::uint32_t named)
    {
        std::uint32_t child = m_tree.addChildren(at, Kind::Object, named);
        bool renamed = false;
        forEachChild(group, [&](const Segment& part, const Group& item) {
            if (part.isIndex())
                return;
            const QueryMember* member = findQueryMember(part.text);
            if (!member) {
                m_tree.node(child).key = part.text;
                readPlainValue(item, child++);
                return;
            }
            renamed = true;
            // CreateQueue's tag map is the lower-case `tags` member (§2.4); TagQueue's is `Tags`.
            const bool createQueueTags = member->json == "Tags" && m_action == "CreateQueue";
            m_tree.node(child).key = createQueueTags ? std::string_view("tags") : member->json;
            readMemberValue(*member, item, child++);
        });
        // The JSON names of flattened members sort differently from their Query names, and two
        // Query names can give one JSON name (the last in name order wins). Members that kept
        // their names are in order already: distinct parts, ranked by their bytes.
        if (renamed)
            m_tree.orderMembers(at);
    }

    std::vector<Segment> m_segments;
    std::vector<Parameter> m_parameters;
    std::string_view m_action;
    MemberTree& m_tree;
};

} // namespace

engine::Result<QueryParameters, QueryFault> readQueryParameters(std::string_view query,
                                                                std::string_view body)
{
    QueryParameters result;
    // Decoded text is never longer than the form it came from: decoded straight into the tree.
    auto tree = std::make_shared<MemberTree>(0);
    char* const text = tree->room(query.size() + body.size());
    FormViews pairs;
    const FormResult<std::size_t> fromQuery = decodeFormInto(query, text, pairs);
    if (!fromQuery)
        return QueryFault::NotUtf8;
    const FormResult<std::size_t> fromBody = decodeFormInto(body, text + *fromQuery, pairs);
    if (!fromBody)
        return QueryFault::NotUtf8;
    tree->used(*fromQuery + *fromBody);

    std::vector<Segment> segments;
    std::vector<Parameter> parameters;
    segments.reserve(pairs.size() * 3);
    parameters.reserve(pairs.size());
    // For each name part, the part it repeats (one of the last four distinct name parts at its
    // depth, if the same text), or itself: a batch's entries alternate their members' names
    // (`Id`, `ReceiptHandle`, `Id`, …), which then are ranked once each, not once an entry.
    std::vector<std::uint32_t> sameAs;
    sameAs.reserve(pairs.size() * 3);
    constexpr std::uint32_t kNone = ~std::uint32_t(0);
    std::array<std::array<std::uint32_t, 4>, kMaxNameSegments> recentNames;
    for (auto& recent : recentNames)
        recent.fill(kNone);
    for (std::uint32_t order = 0; order < pairs.size(); ++order) {
        const auto& [name, value] = pairs[order];
        if (name == "Action") {
            result.action = value;
            continue;
        }
        Parameter parameter;
        parameter.first = static_cast<std::uint32_t>(segments.size());
        parameter.order = order;
        parameter.value = value;
        for (std::size_t start = 0;;) {
            if (++parameter.count > std::uint32_t(kMaxNameSegments))
                return QueryFault::TooManyParts;
            const std::size_t depth = parameter.count - 1;
            const std::size_t dot = name.find('.', start);
            Segment part;
            part.text = name.substr(
                start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
            const auto at = static_cast<std::uint32_t>(segments.size());
            if (const std::optional<std::int64_t> index = indexOf(part.text)) {
                part.key = std::uint64_t(*index); // digits only: not negative
                sameAs.push_back(at);
            } else {
                part.key = Segment::kNameKeys; // its rank comes below
                std::array<std::uint32_t, 4>& recent = recentNames[depth];
                std::uint32_t same = at;
                for (const std::uint32_t earlier : recent) {
                    if (earlier != kNone && segments[earlier].text == part.text) {
                        same = earlier;
                        break;
                    }
                }
                sameAs.push_back(same);
                if (same == at) { // a name not among the recent ones: first of them now
                    std::move_backward(recent.begin(), recent.end() - 1, recent.end());
                    recent[0] = at;
                }
            }
            segments.push_back(part);
            if (dot == std::string_view::npos)
                break;
            start = dot + 1;
        }
        parameters.push_back(parameter);
    }
    rankNames(segments, sameAs);
    TreeReader(std::move(segments), std::move(parameters), result.action, *tree).readRoot();
    result.tree = std::move(tree);
    return result;
}

} // namespace inflight::protocol
