#include "core/tokenizer/targzextractor.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

namespace Throughline {

namespace {

std::size_t parseOctal(const char *p, std::size_t n)
{
    std::size_t v = 0;
    for (std::size_t i = 0; i < n && p[i]; ++i) {
        if (p[i] == ' ')
            continue;
        if (p[i] < '0' || p[i] > '7')
            break;
        v = v * 8 + static_cast<std::size_t>(p[i] - '0');
    }
    return v;
}

std::string field(const char *p, std::size_t n)
{
    return std::string(p, strnlen(p, n));
}

// "path" from a pax extended header body ("<len> key=value\n" records).
std::string paxPath(const std::string &body)
{
    std::size_t pos = 0;
    while (pos < body.size()) {
        const std::size_t sp = body.find(' ', pos);
        if (sp == std::string::npos)
            break;
        const std::size_t len = std::strtoul(body.c_str() + pos, nullptr, 10);
        if (len == 0 || pos + len > body.size())
            break;
        const std::string rec = body.substr(sp + 1, pos + len - sp - 2); // without trailing \n
        if (rec.rfind("path=", 0) == 0)
            return rec.substr(5);
        pos += len;
    }
    return {};
}

} // namespace

Status TarGzExtractor::extract(const std::string &archive, const std::map<std::string, std::string> &wanted)
{
    gzFile gz = gzopen(archive.c_str(), "rb");
    if (!gz)
        return makeError(ErrorCode::Io, "cannot open archive " + archive);
    gzbuffer(gz, 256 * 1024);
    const auto readExact = [&](char *buf, std::size_t n) -> bool {
        std::size_t got = 0;
        while (got < n) {
            const int r = gzread(gz, buf + got, static_cast<unsigned>(n - got));
            if (r <= 0)
                return false;
            got += static_cast<std::size_t>(r);
        }
        return true;
    };
    std::set<std::string> found;
    std::string nextPath; // from a pax header, applies to the next member
    char header[512];
    std::vector<char> buf(1 << 16);
    Status status = Ok{};
    while (readExact(header, sizeof header)) {
        bool zero = true;
        for (const char c : header)
            zero = zero && c == 0;
        if (zero)
            break; // end-of-archive marker
        const std::size_t size = parseOctal(header + 124, 12);
        const char type = header[156];
        std::string name = field(header, 100);
        const std::string prefix = field(header + 345, 155);
        if (!prefix.empty() && std::memcmp(header + 257, "ustar", 5) == 0)
            name = prefix + "/" + name;
        if (!nextPath.empty()) {
            name = nextPath;
            nextPath.clear();
        }
        const std::size_t padded = (size + 511) / 512 * 512;
        if (type == 'x' || type == 'L') {
            std::string body(padded, '\0');
            if (!readExact(body.data(), padded)) {
                status = makeError(ErrorCode::InvalidInput, archive + ": truncated pax header");
                break;
            }
            body.resize(size);
            nextPath = type == 'x' ? paxPath(body) : std::string(body.c_str());
            continue;
        }
        const auto it = wanted.find(name);
        const bool regular = type == '0' || type == '\0';
        std::FILE *out = nullptr;
        std::string partPath;
        if (it != wanted.end() && regular) {
            partPath = it->second + ".part";
            out = std::fopen(partPath.c_str(), "wb");
            if (!out) {
                status = makeError(ErrorCode::Io, "cannot write " + partPath);
                break;
            }
        }
        std::size_t left = padded;
        std::size_t payload = size;
        bool ok = true;
        while (left > 0) {
            const std::size_t chunk = std::min(left, buf.size());
            if (!readExact(buf.data(), chunk)) {
                ok = false;
                break;
            }
            if (out) {
                const std::size_t write = std::min(chunk, payload);
                if (write > 0 && std::fwrite(buf.data(), 1, write, out) != write)
                    ok = false;
                payload -= write;
            }
            left -= chunk;
        }
        if (out) {
            ok = (std::fclose(out) == 0) && ok;
            if (!ok) {
                std::remove(partPath.c_str());
                status = makeError(ErrorCode::Io, archive + ": cannot extract " + name + " to " + it->second);
                break;
            }
            if (std::rename(partPath.c_str(), it->second.c_str()) != 0) {
                status = makeError(ErrorCode::Io, "cannot rename " + partPath + " to " + it->second);
                break;
            }
            found.insert(name);
        } else if (!ok) {
            status = makeError(ErrorCode::InvalidInput, archive + ": truncated member " + name);
            break;
        }
    }
    gzclose(gz);
    if (!status)
        return status;
    for (const auto &[member, dest] : wanted) {
        if (!found.count(member))
            return makeError(ErrorCode::NotFound, archive + ": has no member " + member);
    }
    return Ok{};
}

} // namespace Throughline
