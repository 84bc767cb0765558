#include "protocol/xml_writer.h"

#include <cstdint>

namespace inflight::protocol {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// The UTF-8 sequence at `at`: its length, and whether XML can carry its character (not U+FFFE or
// U+FFFF). A byte that starts no well-formed sequence (surrogates and overlong forms included) is
// one byte long and not carried.
struct Sequence {
    std::size_t length = 1;
    bool carried = false;
};

Sequence sequenceAt(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const auto continuation
        = [&](std::size_t i) { return at + i < text.size() && (byte(i) & 0xC0) == 0x80; };
    const unsigned char lead = byte(0);
    if (lead >= 0xC2 && lead <= 0xDF)
        return continuation(1) ? Sequence{2, true} : Sequence{};
    if (lead >= 0xE0 && lead <= 0xEF) {
        if (!continuation(1) || !continuation(2))
            return {};
        const std::uint32_t c
            = ((lead & 0x0Fu) << 12) | ((byte(1) & 0x3Fu) << 6) | (byte(2) & 0x3Fu);
        if (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))
            return {};
        return {3, c != 0xFFFE && c != 0xFFFF};
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        if (!continuation(1) || !continuation(2) || !continuation(3))
            return {};
        const std::uint32_t c = ((lead & 0x07u) << 18) | ((byte(1) & 0x3Fu) << 12)
            | ((byte(2) & 0x3Fu) << 6) | (byte(3) & 0x3Fu);
        return c >= 0x10000 && c <= 0x10FFFF ? Sequence{4, true} : Sequence{};
    }
    return {};
}

} // namespace

void XmlWriter::startDocument()
{
    m_out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
}

void XmlWriter::closeStartTag()
{
    if (m_inStartTag) {
        m_out += '>';
        m_inStartTag = false;
    }
}

void XmlWriter::startElement(std::string_view name)
{
    closeStartTag();
    m_out += '<';
    m_out.append(name.data(), qsizetype(name.size()));
    m_nameStarts.push_back(m_names.size());
    m_names.append(name.data(), qsizetype(name.size()));
    m_inStartTag = true;
}

void XmlWriter::attribute(std::string_view name, std::string_view value)
{
    m_out += ' ';
    m_out.append(name.data(), qsizetype(name.size()));
    m_out += "=\"";
    escaped(value, true);
    m_out += '"';
}

void XmlWriter::text(std::string_view utf8)
{
    closeStartTag();
    escaped(utf8, false);
}

void XmlWriter::endElement()
{
    if (m_nameStarts.empty())
        return;
    const qsizetype start = m_nameStarts.back();
    m_nameStarts.pop_back();
    if (m_inStartTag) {
        m_out += "/>";
        m_inStartTag = false;
    } else {
        m_out += "</";
        m_out.append(m_names.constData() + start, m_names.size() - start);
        m_out += '>';
    }
    m_names.truncate(start);
}

void XmlWriter::emptyElement(std::string_view name)
{
    startElement(name);
    endElement();
}

void XmlWriter::textElement(std::string_view name, std::string_view utf8)
{
    startElement(name);
    text(utf8);
    endElement();
}

void XmlWriter::endDocument()
{
    while (!m_nameStarts.empty())
        endElement();
    m_out += '\n';
}

void XmlWriter::escaped(std::string_view utf8, bool attribute)
{
    std::size_t run = 0; // start of the bytes that go out as they are
    const auto flush
        = [&](std::size_t end) { m_out.append(utf8.data() + run, qsizetype(end - run)); };
    std::size_t at = 0;
    while (at < utf8.size()) {
        const auto c = static_cast<unsigned char>(utf8[at]);
        if (c >= 0x20 && c < 0x80 && c != '<' && c != '>' && c != '&' && c != '"') {
            ++at;
            continue;
        }
        if (c == '\t' || c == '\n') {
            if (attribute) { // as QXmlStreamWriter writes them in attribute values
                flush(at);
                m_out += c == '\t' ? "&#9;" : "&#10;";
                run = ++at;
            } else {
                ++at;
            }
            continue;
        }
        std::size_t length = 1;
        if (c >= 0x80) {
            const Sequence sequence = sequenceAt(utf8, at);
            if (sequence.carried) {
                at += sequence.length;
                continue;
            }
            length = sequence.length;
        }
        flush(at);
        switch (c) {
        case '<': m_out += "&lt;"; break;
        case '>': m_out += "&gt;"; break;
        case '&': m_out += "&amp;"; break;
        case '"': m_out += "&quot;"; break;
        case '\r': m_out += "&#xD;"; break;
        default: m_out.append(kReplacement.data(), qsizetype(kReplacement.size())); break;
        }
        at += length;
        run = at;
    }
    flush(at);
}

} // namespace inflight::protocol
