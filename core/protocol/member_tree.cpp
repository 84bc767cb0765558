#include "protocol/member_tree.h"

#include <algorithm>
#include <cstring>

namespace inflight::protocol {

namespace {

constexpr std::size_t kSmallestBlock = 256;
// Objects up to this size are ordered by insertion (no buffer); larger ones by std::stable_sort.
constexpr std::uint32_t kInsertionOrderLimit = 16;

} // namespace

MemberTree::MemberTree(std::size_t textBytes)
    : m_nodes(1), m_nextBlock(std::max(textBytes, kSmallestBlock))
{
}

const MemberTree::Node* MemberTree::find(const Node& object, std::string_view key) const
{
    if (object.kind != Kind::Object)
        return nullptr;
    const std::span<const Node> members = children(object);
    if (members.size() <= 8) {
        for (const Node& member : members)
            if (member.key == key)
                return &member;
        return nullptr;
    }
    const auto it
        = std::lower_bound(members.begin(), members.end(), key,
                           [](const Node& member, std::string_view k) { return member.key < k; });
    return it != members.end() && it->key == key ? &*it : nullptr;
}

nlohmann::json MemberTree::toJson(const Node& node) const
{
    switch (node.kind) {
    case Kind::Null: return nullptr;
    case Kind::Boolean: return node.boolean;
    case Kind::Integer: return node.integer;
    case Kind::Unsigned: return node.unsignedInteger;
    case Kind::Float: return node.real;
    case Kind::String: return std::string(node.text);
    case Kind::Array: {
        nlohmann::json array = nlohmann::json::array();
        for (const Node& item : children(node))
            array.push_back(toJson(item));
        return array;
    }
    case Kind::Object: {
        nlohmann::json object = nlohmann::json::object();
        for (const Node& member : children(node))
            object[std::string(member.key)] = toJson(member);
        return object;
    }
    }
    return nullptr;
}

std::uint32_t MemberTree::addChildren(std::uint32_t parent, Kind kind, std::uint32_t count)
{
    const auto first = static_cast<std::uint32_t>(m_nodes.size());
    m_nodes.resize(m_nodes.size() + count);
    Node& node = m_nodes[parent];
    node.kind = kind;
    node.first = first;
    node.count = count;
    return first;
}

char* MemberTree::room(std::size_t bytes)
{
    if (m_room < bytes) {
        const std::size_t size = std::max(m_nextBlock, bytes);
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
        m_free = m_blocks.back().get();
        m_room = size;
        m_nextBlock = std::max(kSmallestBlock, size); // a request that outgrew its guess
    }
    return m_free;
}

void MemberTree::used(std::size_t bytes)
{
    m_free += bytes;
    m_room -= bytes;
}

std::string_view MemberTree::keep(std::string_view text)
{
    if (text.empty())
        return {};
    char* const to = room(text.size());
    std::memcpy(to, text.data(), text.size());
    used(text.size());
    return {to, text.size()};
}

void MemberTree::orderMembers(std::uint32_t object)
{
    Node& parent = m_nodes[object];
    if (parent.count < 2)
        return; // in order, and one of each, already
    Node* const begin = m_nodes.data() + parent.first;
    Node* const end = begin + parent.count;
    const auto byKey = [](const Node& a, const Node& b) { return a.key < b.key; };
    if (parent.count <= kInsertionOrderLimit) {
        for (Node* at = begin + 1; at < end; ++at) { // stable: equal keys keep their order
            if (!byKey(*at, *(at - 1)))
                continue;
            Node moving = std::move(*at);
            Node* to = at;
            do {
                *to = std::move(*(to - 1));
                --to;
            } while (to > begin && byKey(moving, *(to - 1)));
            *to = std::move(moving);
        }
    } else {
        std::stable_sort(begin, end, byKey);
    }
    // The last of each run of equal keys stays, moved down over the ones before it.
    Node* out = begin;
    for (Node* at = begin; at < end; ++at) {
        if (at + 1 < end && at[1].key == at->key)
            continue;
        if (out != at)
            *out = std::move(*at);
        ++out;
    }
    parent.count = static_cast<std::uint32_t>(out - begin);
}

} // namespace inflight::protocol
