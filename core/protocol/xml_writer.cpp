#include "protocol/xml_writer.h"

#include "engine/message_validation.h"
#include "protocol/utf8.h"

#include <QList>

namespace inflight::protocol {

namespace {

// Text the engine did not check (echoed input in an error message, at most) as text XML can
// carry: bytes that are not UTF-8 become U+FFFD as QString::fromUtf8 reads them (textOf), and so
// does each character outside XML's set.
QByteArray carriedText(std::string_view utf8)
{
    QString text;
    for (const char32_t c : textOf(utf8).toUcs4()) {
        const bool carried = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
            || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
        // Not QString::fromUcs4, which reads a U+FEFF as a byte-order mark and drops it.
        text.append(QChar::fromUcs4(carried ? c : 0xFFFD));
    }
    return text.toUtf8();
}

// Text XML can carry, with `<`, `>`, `&`, `"` and CR escaped (and TAB and LF in attributes, as
// QXmlStreamWriter writes them there).
void appendEscaped(QByteArray& out, std::string_view utf8, bool attribute)
{
    std::size_t run = 0; // start of the bytes that go out as they are
    for (std::size_t at = 0; at < utf8.size(); ++at) {
        const char* escape = nullptr;
        switch (utf8[at]) {
        case '<': escape = "&lt;"; break;
        case '>': escape = "&gt;"; break;
        case '&': escape = "&amp;"; break;
        case '"': escape = "&quot;"; break;
        case '\r': escape = "&#xD;"; break;
        case '\t': escape = attribute ? "&#9;" : nullptr; break;
        case '\n': escape = attribute ? "&#10;" : nullptr; break;
        default: break;
        }
        if (!escape)
            continue;
        out.append(utf8.data() + run, qsizetype(at - run));
        out += escape;
        run = at + 1;
    }
    out.append(utf8.data() + run, qsizetype(utf8.size() - run));
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
    // XML's characters are the ones SQS allows in a message (§1.3): text the engine keeps passes
    // that check, and only escapes are left to write.
    if (!engine::isValidMessageText(utf8)) {
        const QByteArray carried = carriedText(utf8);
        appendEscaped(m_out, std::string_view(carried.constData(), std::size_t(carried.size())),
                      attribute);
        return;
    }
    appendEscaped(m_out, utf8, attribute);
}

} // namespace inflight::protocol
