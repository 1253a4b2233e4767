#include "core/engine/secrets.h"

#include <QProcess>
#include <QStringList>

#include <cctype>
#include <cstdlib>

namespace Throughline {

Result<std::string> resolveApiKey(const Endpoint &endpoint, const std::string &envOverride)
{
    const std::string var = envOverride.empty() ? endpoint.apiKeyEnv : envOverride;
    if (!var.empty()) {
        const char *v = std::getenv(var.c_str());
        if (!v || !*v)
            return makeError(ErrorCode::InvalidInput, "endpoint '" + endpoint.name + "': API key variable " +
                                                          var + " is not set or empty");
        return std::string(v);
    }
    if (!endpoint.apiKeyKeyring.empty()) {
        // secret-tool lookup service throughline account <entry>: libsecret's CLI; no D-Bus code in core.
        QProcess p;
        p.start(QStringLiteral("secret-tool"),
                {QStringLiteral("lookup"), QStringLiteral("service"), QStringLiteral("throughline"),
                 QStringLiteral("account"), QString::fromStdString(endpoint.apiKeyKeyring)});
        if (!p.waitForStarted(3000))
            return makeError(ErrorCode::NotFound,
                             "endpoint '" + endpoint.name +
                                 "': secret-tool is not installed (needed for keyring entry " +
                                 endpoint.apiKeyKeyring + ")");
        p.closeWriteChannel();
        if (!p.waitForFinished(10000) || p.exitCode() != 0)
            return makeError(ErrorCode::NotFound, "endpoint '" + endpoint.name + "': keyring entry " +
                                                      endpoint.apiKeyKeyring + " not found");
        std::string key = p.readAllStandardOutput().toStdString();
        while (!key.empty() && (key.back() == '\n' || key.back() == '\r'))
            key.pop_back();
        if (key.empty())
            return makeError(ErrorCode::NotFound, "endpoint '" + endpoint.name + "': keyring entry " +
                                                      endpoint.apiKeyKeyring + " is empty");
        return key;
    }
    return std::string();
}

std::string redactSecrets(std::string_view text, std::string_view key)
{
    std::string out(text);
    if (key.size() >= 4) {
        std::size_t pos = 0;
        while ((pos = out.find(key, pos)) != std::string::npos) {
            out.replace(pos, key.size(), "***");
            pos += 3;
        }
    }
    // "Bearer <token>": token = run of non-space, non-quote characters.
    std::size_t i = 0;
    while (i + 6 <= out.size()) {
        bool match = true;
        static constexpr char kBearer[] = "bearer";
        for (std::size_t k = 0; k < 6; ++k) {
            if (std::tolower(static_cast<unsigned char>(out[i + k])) != kBearer[k]) {
                match = false;
                break;
            }
        }
        if (!match) {
            ++i;
            continue;
        }
        std::size_t j = i + 6;
        while (j < out.size() && (out[j] == ' ' || out[j] == '\t'))
            ++j;
        if (j == i + 6) { // "bearer" inside a word, not a scheme
            i = j;
            continue;
        }
        std::size_t tokEnd = j;
        while (tokEnd < out.size() && !std::isspace(static_cast<unsigned char>(out[tokEnd])) &&
               out[tokEnd] != '"' && out[tokEnd] != '\'' && out[tokEnd] != ',')
            ++tokEnd;
        if (tokEnd > j && !(tokEnd - j == 3 && out.compare(j, 3, "***") == 0)) {
            out.replace(j, tokEnd - j, "***");
            i = j + 3;
        } else {
            i = j;
        }
    }
    return out;
}

} // namespace Throughline
