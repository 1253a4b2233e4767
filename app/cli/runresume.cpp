#include "runresume.h"

#include "core/campaign/campaignhash.h"
#include "core/campaign/campaignvalidator.h"
#include "core/campaign/catalog.h"
#include "core/storage/historypath.h"
#include "core/storage/storagewriter.h"
#include "core/util/exitcodes.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace Throughline::Cli {
namespace {

std::string sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
}

// The file holds the stored campaign: its canonical text hashes as the stored text (campaignhash.h), or —
// runs recorded before the canonical text was stored — its bytes are the stored bytes.
bool sameCampaign(const QByteArray &fileBytes, const std::string &storedText, std::string *fileSha)
{
    *fileSha = sha256Hex(fileBytes);
    const std::string storedSha = campaignSha256(storedText);
    if (*fileSha == storedSha)
        return true;
    const auto parsed = CampaignValidator(Catalog::builtin()).validate(fileBytes.toStdString());
    if (!parsed.campaign)
        return false;
    *fileSha = campaignSha256(canonicalCampaignText(*parsed.campaign));
    return *fileSha == storedSha;
}

} // namespace

int prepareResume(const Context &ctx, const QString &runArg, const QString &campaignArg, ResumeState &rs)
{
    auto refuse = [&](const std::string &message, int code = ExitBadInput) {
        std::fprintf(stderr, "throughline-cli run: --resume %s: %s\n", runArg.toLocal8Bit().constData(),
                     message.c_str());
        return code;
    };
    rs.historyDb = HistoryPath::resolve(ctx.global().db.toStdString());
    if (!QFileInfo::exists(QString::fromStdString(rs.historyDb)))
        return refuse("no history database at " + rs.historyDb + " (the run is unknown)");
    {
        StorageWriter recover; // migrates an old database and marks runs of dead writers 'crashed'
        if (auto st = recover.open(rs.historyDb); !st)
            return refuse("history database " + rs.historyDb + ": " + st.error().message, ExitRuntime);
        (void)recover.close();
    }
    HistoryReader reader;
    if (auto st = reader.open(rs.historyDb); !st)
        return refuse("history database " + rs.historyDb + ": " + st.error().message, ExitRuntime);
    auto uuid = reader.resolveRun(runArg.toStdString());
    if (!uuid)
        return refuse(uuid.error().message,
                      uuid.error().code == ErrorCode::Storage ? ExitRuntime : ExitBadInput);
    rs.uuid = *uuid;
    auto detail = reader.runDetail(rs.uuid);
    if (!detail)
        return refuse(detail.error().message, ExitRuntime);
    rs.detail = std::move(detail).value();
    const RunSummary &sum = rs.detail.summary;
    if (sum.status == "completed")
        return refuse("run " + rs.uuid + " is completed; only crashed or cancelled runs resume");
    if (sum.status == "running") {
        std::string who;
        if (auto st =
                reader.connection().prepare("SELECT writer_pid, writer_host FROM runs WHERE uuid = ?")) {
            st->bind(1, rs.uuid);
            if (st->step() == 100 /*SQLITE_ROW*/)
                who = " (pid " + std::to_string(st->colInt(0)) + " on " + st->colText(1) + ")";
        }
        return refuse("run " + rs.uuid + " is still running in another process" + who +
                      "; wait for it or stop it first");
    }
    if (!sum.shard.empty())
        return refuse("run " + rs.uuid + " is shard " + sum.shard +
                      " of a sharded run; run that shard again instead");
    if (sum.source != "throughline-cli" && sum.source != "throughline")
        return refuse("run " + rs.uuid + " was imported (" + sum.source + "); it cannot be resumed");

    // The campaign: the file given, else the original file when it still exists, else the stored text.
    const nlohmann::json cli = rs.detail.provenance.is_object()
                                   ? rs.detail.provenance.value("cli", nlohmann::json::object())
                                   : nlohmann::json::object();
    const QString original = QString::fromStdString(cli.value("campaign_path", std::string()));
    for (const auto &e : cli.value("endpoints", nlohmann::json::array()))
        if (e.is_string())
            rs.endpoints.push_back(QString::fromStdString(e.get<std::string>()));
    if (const auto f = cli.find("first_token_priority"); f != cli.end() && f->is_boolean())
        rs.firstTokenPriority = f->get<bool>();
    const std::string storedSha = campaignSha256(rs.detail.campaignJson);
    rs.campaignPath = !campaignArg.isEmpty() ? campaignArg : original;
    if (!rs.campaignPath.isEmpty() && (campaignArg.isEmpty() ? QFileInfo(original).isFile() : true)) {
        QFile f(rs.campaignPath);
        if (!f.open(QIODevice::ReadOnly))
            return refuse("cannot read campaign file " + rs.campaignPath.toStdString());
        std::string sha;
        if (!sameCampaign(f.readAll(), rs.detail.campaignJson, &sha))
            return refuse("campaign file " + rs.campaignPath.toStdString() + " has changed since run " +
                          rs.uuid + " started (sha256 now " + sha.substr(0, 12) + "…, the run's " +
                          storedSha.substr(0, 12) + "…); resume needs the campaign as it was");
        rs.campaignDir = QFileInfo(rs.campaignPath).absolutePath();
    } else {
        rs.tmp = std::make_unique<QTemporaryDir>();
        rs.campaignPath = rs.tmp->filePath(u"campaign.json"_qs);
        QFile f(rs.campaignPath);
        if (!rs.tmp->isValid() || !f.open(QIODevice::WriteOnly) ||
            f.write(QByteArray::fromStdString(rs.detail.campaignJson)) < 0)
            return refuse("cannot write the stored campaign to a temporary file", ExitRuntime);
        rs.campaignDir = original.isEmpty() ? QFileInfo(rs.campaignPath).absolutePath()
                                            : QFileInfo(original).absolutePath();
    }

    for (const PointRow &p : rs.detail.points) {
        if (p.status != "completed") {
            rs.drop.emplace_back(p.scenarioIndex, p.pointIndex);
            continue;
        }
        auto pr = PointResult::fromJson(p.aggregates);
        if (!pr)
            return refuse("stored point " + std::to_string(p.pointIndex) + " of " + p.scenarioKey +
                              " cannot be read: " + pr.error().message,
                          ExitRuntime);
        PointResult r = std::move(pr).value();
        if (p.windowStartNs != kNoTime)
            r.w0S = static_cast<double>(p.windowStartNs) / 1e9;
        if (p.windowEndNs != kNoTime)
            r.w1S = static_cast<double>(p.windowEndNs) / 1e9;
        rs.completed[{p.scenarioIndex, p.pointIndex}] = std::move(r);
    }
    auto next = reader.connection().queryInt("SELECT COALESCE(max(q.seq) + 1, 0) FROM requests q JOIN points "
                                             "p ON p.id = q.point_id WHERE p.run_id "
                                             "= " +
                                             std::to_string(sum.id));
    if (!next)
        return refuse(next.error().message, ExitRuntime);
    rs.firstSeq = static_cast<std::uint64_t>(*next);
    return -1;
}

} // namespace Throughline::Cli
