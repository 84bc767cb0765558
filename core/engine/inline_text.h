#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

namespace inflight::engine {

// Text of at most N characters held in the object itself: no heap, copied with the object. For
// the fixed-length texts an event carries for each message (a 36-character message id, a
// 48-character receipt handle), which a std::string would allocate for every event.
//
// Reads as a std::string_view, or as a std::string where one is asked for (implicitly, a copy);
// str() makes the copy explicit. Text longer than N is a caller's error (asserted; cut to N in a
// release build).
template <std::size_t N>
class InlineText {
    static_assert(N > 0 && N < 256, "the length is kept in one byte");

public:
    static constexpr std::size_t capacity = N;

    constexpr InlineText() = default;
    InlineText(std::string_view text) { assign(text); } // NOLINT: implicit, as a string would be

    InlineText& operator=(std::string_view text)
    {
        assign(text);
        return *this;
    }

    void assign(std::string_view text)
    {
        assert(text.size() <= N);
        m_size = static_cast<std::uint8_t>(std::min(text.size(), N));
        std::memcpy(m_text, text.data(), m_size);
    }

    // Room to write exactly `size` characters into (size <= N), as the formatters do.
    char* resize(std::size_t size)
    {
        assert(size <= N);
        m_size = static_cast<std::uint8_t>(std::min(size, N));
        return reinterpret_cast<char*>(m_text);
    }

    void clear() { m_size = 0; }
    bool empty() const { return m_size == 0; }
    std::size_t size() const { return m_size; }
    const char* data() const { return reinterpret_cast<const char*>(m_text); }
    std::string_view view() const { return {data(), m_size}; }
    operator std::string_view() const { return view(); } // NOLINT: reads as text
    // Where a std::string is asked for (a copy, as a string member's would be).
    operator std::string() const { return str(); } // NOLINT: reads as text
    std::string str() const { return std::string(view()); }

    friend bool operator==(const InlineText& a, const InlineText& b)
    {
        return a.view() == b.view();
    }
    friend bool operator==(const InlineText& a, std::string_view b) { return a.view() == b; }
    friend std::string operator+(std::string text, const InlineText& more)
    {
        text += more.view();
        return text;
    }
    friend std::ostream& operator<<(std::ostream& out, const InlineText& text)
    {
        return out << text.view();
    }

private:
    std::uint8_t m_size = 0;
    // Left as it is until written (an event is made for every change): only the first m_size
    // bytes are ever read; unsigned char, so copying the rest with the object is defined.
    unsigned char m_text[N];
};

} // namespace inflight::engine
